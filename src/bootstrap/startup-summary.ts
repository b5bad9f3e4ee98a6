import type { AppConfig } from '../config/app-config';
import type { DemoLogin } from '../database/seed/demo-seed.registry';

/** What start-up found about accounts: the demo logins it created, and whether any Admin exists. */
export interface StartupAccounts {
  demo: DemoLogin | undefined;
  noAdmin: boolean;
}

export const SET_PASSWORD_COMMAND = 'npm run admin:password -- <email>';

/** How to get a first Admin (also logged as a warning in the JSON format). */
export const CREATE_ADMIN_HINT =
  'No Admin account yet. Create one: set ADMIN_EMAIL and ADMIN_PASSWORD (e.g. in .env) and restart; then remove ADMIN_PASSWORD (change the password with npm run admin:password -- <email>)';

/**
 * The few lines a person starting the service needs, printed last: where the API and its docs are; on the
 * start that created the demo content, how to log in (the password is shown this once, and never in
 * production); otherwise how to recover access, or how to create the first Admin.
 */
export function startupSummary(config: AppConfig, accounts: StartupAccounts): string {
  const base = config.publicUrl;
  const { demo } = accounts;
  const lines = [
    '',
    `  Repair Guide Content Service is listening on ${base}`,
    `    API index   ${base}/api/2.0`,
    `    Swagger UI  ${base}/api/2.0/docs`,
    `    Health      ${base}/health`,
  ];
  if (demo && config.env !== 'production') {
    lines.push(
      '',
      `  Demo accounts (password for all, shown once: ${demo.password})`,
      ...demo.accounts.map((account) => `    ${account.email.padEnd(26)} ${account.privilege}`),
      `  Log in: POST ${base}/api/2.0/user/token  {"email": "${demo.accounts[0]?.email}", "password": "…"}`,
      `  Lost it? ${SET_PASSWORD_COMMAND} sets a new one.`,
    );
  } else if (demo) {
    lines.push(
      '',
      '  Demo accounts (SEED_DEMO=true; their password is not shown in production):',
      ...demo.accounts.map((account) => `    ${account.email.padEnd(26)} ${account.privilege}`),
      `  Give one a password with: ${SET_PASSWORD_COMMAND}`,
    );
  } else if (accounts.noAdmin) {
    lines.push(
      '',
      '  No Admin account yet. Create one: set ADMIN_EMAIL and ADMIN_PASSWORD (e.g. in .env) and restart;',
      `  then remove ADMIN_PASSWORD (change the password with: ${SET_PASSWORD_COMMAND}).`,
    );
  } else {
    lines.push(
      '',
      `  Lost a password? ${SET_PASSWORD_COMMAND} sets a new one (from a prompt or stdin),`,
      '  or set ADMIN_EMAIL and ADMIN_PASSWORD and restart (docs/configuration.md, "Recovering access").',
    );
  }
  return `${lines.join('\n')}\n\n`;
}
