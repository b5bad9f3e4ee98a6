import { writeFile } from 'node:fs/promises';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { backgroundContext, requestContext } from '../../common/context/request-context';
import { notFound, RevisionConflictException, unprocessable } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { JobRunner, type JobContext } from '../../platform/jobs/job-runner';
import { Scheduler } from '../../platform/jobs/scheduler';
import type { ImportPreviewDto, TrainingImportDto } from './dto/training-response.dto';
import type { TrainingImportEntity } from './entities/training-import.entity';
import { TERMINAL_IMPORT_STATUSES, WORKING_IMPORT_STATUSES } from './import.state-machine';
import { instanceStarted, instanceStopped, ownerGone } from './import-owner';
import { IMPORT_JOB, importJobKey, TrainingImportJob } from './training-import-job';
import { ImportStopped, TrainingImportMoves } from './training-import-moves';
import { TrainingImportUpload } from './training-import-upload';
import { toImportDto, toModuleDto, toPreviewDto } from './training-module.mapper';
import { TrainingModulesRepository } from './training-modules.repository';
import { TrainingPlayerService } from './training-player.service';
import type { TrainingStorage } from './training-storage';
import { refusalOf } from './url-fetcher';

/** How often an instance marks the imports it works on as alive. */
const HEARTBEAT_MS = 30_000;
/** A working import not marked alive for this long (and not waiting for its job) was interrupted. */
export const SILENT_AFTER_SECONDS = 120;

/**
 * Imports (docs/enterprise/training-modules.md, T5, T8-T13): packages received by upload (streamed to disk) or fetched
 * by URL, then checked and extracted by a job on the platform runner (at most 2 at once, one per module through the
 * `running_slot` unique index). Every move is a conditional update with its audit row; completion and failure publish
 * events. Cancelling or failing deletes partial files. The instance working an import marks it alive (`heartbeat_date`,
 * `owner_instance`) with every move and progress and every 30 s. An import whose instance stopped or died fails with
 * INTERRUPTED: at boot when that instance's process is known to be gone (it ran on this host), and otherwise once it
 * has been silent for 2 minutes and its job does not wait in the queue (checked at boot and every minute), so imports
 * that another live instance works on are left alone.
 */
@Injectable()
export class TrainingImportsService implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly moves: TrainingImportMoves,
    private readonly job: TrainingImportJob,
    private readonly upload: TrainingImportUpload,
    private readonly repository: TrainingModulesRepository,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly jobs: JobRunner,
    private readonly scheduler: Scheduler,
    private readonly player: TrainingPlayerService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get storage(): TrainingStorage {
    return this.moves.storage;
  }

  private get instance(): string {
    return this.moves.instance;
  }

  async require(importid: number): Promise<TrainingImportEntity> {
    return this.moves.require(importid);
  }

  async one(importid: number): Promise<TrainingImportDto> {
    return this.moves.one(importid);
  }

  /** The import job (also run at once by importBuffer). */
  run(importid: number, job?: JobContext): Promise<void> {
    return this.job.run(importid, job);
  }

  /** T10 (training-import-upload.ts). */
  startByUpload(importid: number, request: FastifyRequest): Promise<TrainingImportDto> {
    return this.upload.startByUpload(importid, request);
  }

  onModuleInit(): void {
    instanceStarted(this.instance);
    this.jobs.register<{ importid: number }>(IMPORT_JOB, (payload, job) => this.run(payload.importid, job), {
      concurrency: 2,
      maxAttempts: 1,
      leaseMs: 15 * 60_000,
    });
    this.scheduler.add({
      name: 'training-imports.heartbeat',
      every: HEARTBEAT_MS,
      lockMs: false,
      run: () => this.heartbeat(),
    });
    this.scheduler.add({
      name: 'training-imports.interrupted',
      every: 60_000,
      run: () => this.failInterrupted().then(() => undefined),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await requestContext.run(backgroundContext('training-imports'), async () => {
      await this.failOrphaned();
      await this.failInterrupted();
    });
  }

  onApplicationShutdown(): void {
    instanceStopped(this.instance);
  }

  /** Marks the imports this instance receives or runs as alive. */
  async heartbeat(): Promise<void> {
    const mine = [...this.moves.receiving.keys(), ...this.moves.working];
    await this.repository.touchImports(mine, [...WORKING_IMPORT_STATUSES], this.clock.nowSeconds(), this.instance);
  }

  /**
   * Imports whose instance is known to be gone (killed on this host, then restarted) fail with INTERRUPTED at
   * once, without waiting for their heartbeat to fall silent; their job, if it still waits, runs them instead.
   */
  async failOrphaned(): Promise<number> {
    let count = 0;
    for (const row of await this.repository.importsIn([...WORKING_IMPORT_STATUSES])) {
      if (!ownerGone(row.ownerInstance)) continue;
      if (await this.jobs.isQueued(importJobKey(row.importid))) continue;
      if (await this.moves.fail(row, 'INTERRUPTED', 'The service stopped while the import was running')) count += 1;
    }
    return count;
  }

  /**
   * Imports left working by a stopped process (silent for SILENT_AFTER_SECONDS, their job not waiting in the
   * queue) fail with INTERRUPTED, and their partial files go.
   */
  async failInterrupted(): Promise<number> {
    let count = 0;
    const before = this.clock.nowSeconds() - SILENT_AFTER_SECONDS;
    for (const row of await this.repository.silentImports([...WORKING_IMPORT_STATUSES], before)) {
      if (this.moves.receiving.has(row.importid) || this.moves.working.has(row.importid)) continue;
      if (await this.jobs.isQueued(importJobKey(row.importid))) continue;
      if (await this.moves.fail(row, 'INTERRUPTED', 'The service stopped while the import was running')) count += 1;
    }
    return count;
  }

  // ------------------------------------------------------------------ reads

  /** T5. */
  async list(
    moduleid: number,
    page: { order: 'ASC' | 'DESC'; offset: number; limit: number },
  ): Promise<TrainingImportDto[]> {
    if (!(await this.repository.findModule(moduleid))) throw notFound('Module');
    return (await this.repository.imports(moduleid, page)).map(toImportDto);
  }

  /** T13: what a complete import brought, with a preview launch of the draft. */
  async preview(importid: number, caller: AuthenticatedUser): Promise<ImportPreviewDto> {
    const row = await this.require(importid);
    if (row.status !== 'complete') throw new RevisionConflictException(toImportDto(row));
    const launch = await this.player.launch(row.moduleid, row.versionid, caller, { preview: true });
    return toPreviewDto(row, launch.launch_url);
  }

  // ------------------------------------------------------------------ T8, T11

  /** T8: a new import into the module's draft. */
  async create(moduleid: number, caller: AuthenticatedUser): Promise<TrainingImportDto> {
    const importid = await this.transactions.run(async () => {
      const module = await this.repository.findModule(moduleid);
      if (!module) throw notFound('Module');
      if (module.draftVersionid === null) {
        const versions = await this.repository.versions([module.currentVersionid]);
        throw new RevisionConflictException(toModuleDto(module, versions, true));
      }
      const running = await this.repository.runningImport(moduleid);
      if (running) throw new RevisionConflictException(toImportDto(running));
      const now = this.clock.nowSeconds();
      let id: number;
      try {
        id = await this.repository.insertImport({
          moduleid,
          versionid: module.draftVersionid,
          source: null,
          status: 'created',
          runningSlot: 1,
          percent: 0,
          bytesDone: 0,
          bytesTotal: null,
          warningsJson: '[]',
          errorCode: null,
          errorMessage: null,
          url: null,
          previewJson: null,
          userid: caller.userid,
          createdDate: now,
          finishedDate: null,
          heartbeatDate: null,
          ownerInstance: null,
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const winner = await this.repository.runningImport(moduleid);
        throw winner ? new RevisionConflictException(toImportDto(winner)) : error;
      }
      const created = await this.require(id);
      await this.audit.record({
        action: 'training_import.create',
        entity: ['training_import', id],
        after: toImportDto(created),
      });
      return id;
    });
    return this.one(importid);
  }

  /** T11. */
  async cancel(importid: number): Promise<TrainingImportDto> {
    for (let tries = 0; tries < 5; tries += 1) {
      const row = await this.require(importid);
      if (TERMINAL_IMPORT_STATUSES.includes(row.status)) throw new RevisionConflictException(toImportDto(row));
      const moved = await this.moves.move(
        row,
        'cancel',
        { finishedDate: this.clock.nowSeconds(), runningSlot: null },
        'training_import.cancel',
      );
      if (!moved) continue;
      this.moves.receiving.get(importid)?.abort(new ImportStopped());
      await this.storage.removePartial(row.moduleid, importid);
      return this.one(importid);
    }
    throw new RevisionConflictException(await this.one(importid));
  }

  // ------------------------------------------------------------------ T9

  /** T9: checks the URL's text (422 at once), then a job fetches it. */
  async startByUrl(importid: number, url: string): Promise<TrainingImportDto> {
    const refusal = refusalOf(url, this.config.training.urlAllow);
    if (refusal) throw unprocessable(refusal, 'url');
    const row = await this.require(importid);
    if (row.status !== 'created') throw new RevisionConflictException(toImportDto(row));
    const moved = await this.transactions.run(async () => {
      const ok = await this.moves.move(row, 'receive', { source: 'url', url }, 'training_import.start');
      if (ok) await this.jobs.enqueue(IMPORT_JOB, { importid }, { uniqueKey: importJobKey(importid) });
      return ok;
    });
    if (!moved) throw new RevisionConflictException(await this.one(importid));
    return this.one(importid);
  }

  // ------------------------------------------------------------------ T10

  /** Imports a package held in memory at once (the demo seed's small package): received, checked, extracted. */
  async importBuffer(importid: number, data: Buffer): Promise<TrainingImportDto> {
    let row = await this.require(importid);
    if (
      !(await this.moves.move(row, 'receive', { source: 'upload', bytesTotal: data.length }, 'training_import.start'))
    ) {
      throw new RevisionConflictException(toImportDto(row));
    }
    await this.storage.prepareIncoming();
    await writeFile(this.storage.incoming(importid), data);
    row = await this.require(importid);
    await this.moves.move(row, 'validate', { percent: 60, bytesDone: data.length }, 'training_import.received');
    await this.run(importid);
    return this.one(importid);
  }
}
