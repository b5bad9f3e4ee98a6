import { seedingDemo } from '../../database/seed/seeding-demo';
import { Logger } from '@nestjs/common';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * The mail port (docs/enterprise/overview.md): SMTP when SMTP_URL is set, the log otherwise, memory in tests.
 * Code never sends directly: it queues through MailQueue, so a message goes out once its change commits.
 */
export abstract class Mailer {
  abstract send(message: MailMessage): Promise<void>;
}

export class SmtpMailer extends Mailer {
  /** nodemailer loads with the first message (it costs start-up time otherwise). */
  private transport: Promise<Transporter> | undefined;

  constructor(
    private readonly url: string,
    private readonly from: string,
  ) {
    super();
  }

  async send(message: MailMessage): Promise<void> {
    this.transport ??= import('nodemailer').then(({ createTransport }) => createTransport(this.url));
    await (await this.transport).sendMail({ from: this.from, ...message });
  }
}

/** Without SMTP: the message goes to the log (so a development setup can still read sign codes). */
export class LogMailer extends Mailer {
  private readonly logger = new Logger('Mail');

  send(message: MailMessage): Promise<void> {
    // The demo's own notifications: who and what, not the whole message.
    if (seedingDemo()) this.logger.debug(`mail to ${message.to}: ${message.subject}`);
    else this.logger.log({ mail: message }, `mail to ${message.to}: ${message.subject}`);
    return Promise.resolve();
  }
}

/** Tests: messages are kept in memory, sign codes included. */
export class MemoryMailer extends Mailer {
  readonly messages: MailMessage[] = [];

  send(message: MailMessage): Promise<void> {
    this.messages.push(message);
    return Promise.resolve();
  }

  /** Messages sent to one address, oldest first. */
  to(address: string): MailMessage[] {
    return this.messages.filter((m) => m.to === address);
  }

  clear(): void {
    this.messages.length = 0;
  }
}
