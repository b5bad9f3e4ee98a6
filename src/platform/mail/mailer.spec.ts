import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { SmtpMailer } from './mailer';

/** SmtpMailer against a real SMTP sink (smtp-server) on a loopback port. */
describe('SmtpMailer', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString('utf8'),
          });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends through SMTP_URL with the configured sender', async () => {
    const mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'guides@example.com');
    await mailer.send({ to: 'reviewer@example.com', subject: 'Sign-off requested', text: 'Work order WO-1001.' });
    await mailer.send({ to: 'second@example.com', subject: 'Second', text: 'Again.' });
    expect(received.map((m) => ({ from: m.from, to: m.to }))).toEqual([
      { from: 'guides@example.com', to: ['reviewer@example.com'] },
      { from: 'guides@example.com', to: ['second@example.com'] },
    ]);
    expect(received[0].data).toContain('Subject: Sign-off requested');
    expect(received[0].data).toContain('Work order WO-1001.');
  });
});
