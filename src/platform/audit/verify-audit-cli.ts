import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../config/app-config';
import { resolveDataSourceOptions } from '../../database/data-source-options';
import { verifyAuditLog } from './audit-verifier';
import { AuditRepository } from './audit.repository';

/** `npm run audit:verify`: recomputes every audit chain of the configured database; exit 1 names the first broken row. */
async function main(): Promise<void> {
  const config = loadConfig();
  const dataSource = await new DataSource(await resolveDataSourceOptions(config)).initialize();
  try {
    const result = await verifyAuditLog(new AuditRepository(dataSource));
    if (result.ok) {
      process.stdout.write(`audit log intact: ${result.rows} rows in ${result.chains} chains\n`);
      return;
    }
    const b = result.broken!;
    process.stdout.write(
      `audit log BROKEN at auditid ${b.auditid ?? '?'} (${b.entityType} ${b.entityId}): ${b.problem}\n` +
        `checked ${result.rows} rows before it\n`,
    );
    process.exitCode = 1;
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`audit:verify failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
