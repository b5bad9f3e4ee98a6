import 'reflect-metadata';
import { createApp, shutdownApp } from '../../bootstrap/create-app';
import { loadConfig } from '../../config/app-config';
import { loadEnvFile } from '../../config/env-file';
import { weakPasswordReason } from '../../common/security/password';
import { InputCancelled, promptHidden, readFirstLine } from './password-input';
import { UserAccountsService } from './user-accounts.service';

class CliError extends Error {}

/** From the terminal (asked twice, not echoed), or else the first line of stdin. */
async function readNewPassword(email: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) return readFirstLine(stdin);
  const first = await promptHidden(`New password for ${email}: `, stdin, process.stderr);
  const reason = weakPasswordReason(first, email);
  if (reason) throw new CliError(`Password not changed: ${reason}.`);
  const again = await promptHidden('Repeat it: ', stdin, process.stderr);
  if (again !== first) throw new CliError('Password not changed: the two entries differ.');
  return first;
}

/**
 * `npm run admin:password -- <email>`: sets a new password for an existing account in the configured
 * database (read from .env and the environment like `npm start`), read from a prompt or one line of stdin.
 * Exits 1 on an unknown e-mail or a refused password. Safe while the service runs.
 */
async function main(): Promise<void> {
  const email = process.argv[2]?.trim();
  if (!email || process.argv.length > 3) throw new CliError('Usage: npm run admin:password -- <email>');
  loadEnvFile();
  const config = loadConfig({
    ...process.env,
    SCHEDULER_ENABLED: 'false',
    SEED_DEMO: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const app = await createApp(config);
  try {
    const accounts = app.get(UserAccountsService);
    if (!(await accounts.findForLogin(email))) throw new CliError(`No account has the e-mail ${email}.`);
    const password = await readNewPassword(email);
    const reason = weakPasswordReason(password, email);
    if (reason) throw new CliError(`Password not changed: ${reason}.`);
    await accounts.setPassword(email, password);
    process.stdout.write(`New password set for ${email}.\n`);
  } finally {
    await shutdownApp(app, { idleGraceMs: 0 });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    const known = error instanceof CliError || error instanceof InputCancelled;
    process.stderr.write(
      known
        ? `${error.message}\n`
        : `admin:password failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
