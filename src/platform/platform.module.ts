import { ContentVersions } from './versions/content-versions';
import { ResponseCache } from './response-cache/response-cache';
import { ResponseCacheFront } from './response-cache/response-cache-front';
import { DynamicModule, Global, Inject, Module, OnModuleInit } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { DiscoveryModule } from '@nestjs/core';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AuditCheckpoints } from './audit/audit-checkpoints.service';
import { AuditCheckpointsRepository } from './audit/audit-checkpoints.repository';
import { AuditController } from './audit/audit.controller';
import { AuditReader } from './audit/audit-reader.service';
import { AuditRepository } from './audit/audit.repository';
import { AuditService } from './audit/audit.service';
import { AuditVerifier } from './audit/audit-verifier';
import { Clock, SystemClock } from './clock/clock';
import { DocumentRegistry } from './documents/document-registry';
import { GuideDirectory } from './documents/guide-directory';
import { ReleaseDirectory } from './documents/release-directory';
import { ReviewDirectory } from './documents/review-directory';
import { EventBus } from './events/event-bus';
import { OutboxRepository } from './events/outbox.repository';
import { JobRunner } from './jobs/job-runner';
import { JobsRepository } from './jobs/jobs.repository';
import { Scheduler } from './jobs/scheduler';
import { MailQueue } from './mail/mail-queue';
import { LogMailer, Mailer, MemoryMailer, SmtpMailer } from './mail/mailer';
import { SignatureService } from './signatures/signature.service';
import { SignaturesRepository } from './signatures/signatures.repository';
import { SigningLockout } from './signatures/signing-lockout.service';

export const AUDIT_CHECKPOINT_TASK = 'audit.checkpoint';

export interface PlatformOptions {
  /** Replaces the system clock (tests pass a FakeClock). */
  clock?: Clock;
  /** Replaces the mailer chosen from the configuration. */
  mailer?: Mailer;
}

function mailerFor(config: AppConfig): Mailer {
  if (config.mail.smtpUrl) return new SmtpMailer(config.mail.smtpUrl, config.mail.from);
  return config.env === 'test' ? new MemoryMailer() : new LogMailer();
}

/**
 * What every module builds on (docs/enterprise/overview.md): the Clock, the event outbox and its dispatcher, the job
 * runner and scheduled tasks, the audit log, electronic signatures and mail. Global: modules inject
 * these services without importing the module.
 */
@Global()
@Module({})
export class PlatformModule implements OnModuleInit {
  constructor(
    private readonly scheduler: Scheduler,
    private readonly events: EventBus,
    private readonly auditCheckpoints: AuditCheckpoints,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  static forRoot(options: PlatformOptions = {}): DynamicModule {
    const providers = [
      { provide: Clock, useValue: options.clock ?? new SystemClock() },
      options.mailer
        ? { provide: Mailer, useValue: options.mailer }
        : { provide: Mailer, inject: [APP_CONFIG], useFactory: mailerFor },
      OutboxRepository,
      EventBus,
      JobsRepository,
      JobRunner,
      Scheduler,
      AuditRepository,
      AuditService,
      AuditReader,
      AuditCheckpointsRepository,
      AuditCheckpoints,
      AuditVerifier,
      SignaturesRepository,
      SigningLockout,
      SignatureService,
      MailQueue,
      DocumentRegistry,
      ReleaseDirectory,
      ReviewDirectory,
      GuideDirectory,
      ContentVersions,
      ResponseCache,
      ResponseCacheFront,
    ];
    return {
      module: PlatformModule,
      imports: [ScheduleModule.forRoot(), DiscoveryModule],
      controllers: [AuditController],
      providers,
      exports: [
        Clock,
        Mailer,
        EventBus,
        JobRunner,
        Scheduler,
        AuditService,
        AuditCheckpoints,
        AuditVerifier,
        SignatureService,
        MailQueue,
        DocumentRegistry,
        ReleaseDirectory,
        ReviewDirectory,
        GuideDirectory,
        ContentVersions,
        ResponseCache,
        ResponseCacheFront,
      ],
    };
  }

  onModuleInit(): void {
    // Each instance delivers what is pending every 5 s (deliveries are idempotent, so no lock).
    this.scheduler.add({ name: 'events.drain', every: 5000, lockMs: false, run: () => this.events.drain() });
    // One instance at a time (the scheduler's lock) writes the signed checkpoint of the audit chain heads.
    this.scheduler.add({
      name: AUDIT_CHECKPOINT_TASK,
      every: this.config.audit.checkpointEveryMs,
      run: async () => {
        await this.auditCheckpoints.run();
      },
    });
  }
}
