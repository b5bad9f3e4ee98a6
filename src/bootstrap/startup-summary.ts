import type { AppConfig } from '../config/app-config';
import type { DemoLogin } from '../database/seed/demo-seed.registry';

/**
 * The few lines a person starting the service needs, printed last: where the API and its docs are, and,
 * on the start that created the demo content, how to log in (the password is shown this once).
 */
export function startupSummary(config: AppConfig, demo: DemoLogin | undefined): string {
  const base = config.publicUrl;
  const lines = [
    '',
    `  Repair Guide Content Service is listening on ${base}`,
    `    API index   ${base}/api/2.0`,
    `    Swagger UI  ${base}/api/2.0/docs`,
    `    Health      ${base}/health`,
  ];
  if (demo) {
    lines.push(
      '',
      `  Demo accounts (password for all, shown once: ${demo.password})`,
      ...demo.accounts.map((account) => `    ${account.email.padEnd(26)} ${account.privilege}`),
      `  Log in: POST ${base}/api/2.0/user/token  {"email": "${demo.accounts[0]?.email}", "password": "…"}`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}
