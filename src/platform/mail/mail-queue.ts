import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRunner } from '../jobs/job-runner';
import { Mailer, type MailMessage } from './mailer';

const SEND_MAIL = 'mail.send';

/**
 * Queues mail as a job in the current transaction: the message is sent after the change commits, at
 * least once, retried when the server is away, and never for a change that rolled back.
 */
@Injectable()
export class MailQueue implements OnModuleInit {
  constructor(
    private readonly jobs: JobRunner,
    private readonly mailer: Mailer,
  ) {}

  onModuleInit(): void {
    // The payload may hold a sign code: it is emptied once sent.
    this.jobs.register<MailMessage>(SEND_MAIL, (message) => this.mailer.send(message), {
      concurrency: 2,
      maxAttempts: 8,
      scrubPayload: true,
    });
  }

  /** Many messages (a batch job's), in multi-row INSERTs; those without a recipient are skipped. */
  async enqueueMany(messages: MailMessage[]): Promise<void> {
    await this.jobs.enqueueMany(
      SEND_MAIL,
      messages.filter((m) => m.to),
    );
  }

  async enqueue(message: MailMessage): Promise<void> {
    if (!message.to) return;
    await this.jobs.enqueue(SEND_MAIL, message);
  }
}
