import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../config/app-config';
import { loadEnvFile } from '../../config/env-file';
import { resolveDataSourceOptions } from '../../database/data-source-options';
import { SignaturesRepository } from '../signatures/signatures.repository';
import { AuditCheckpointsRepository } from './audit-checkpoints.repository';
import { AuditVerifier } from './audit-verifier';
import { verificationReport } from './audit-verify-report';
import { AuditRepository } from './audit.repository';

/**
 * `npm run audit:verify`: checks the audit log of the configured database (the environment, then `.env`, as
 * the service reads them) under the configured audit key; prints every break (chain, row, kind) and exits 1
 * when there is any.
 */
async function main(): Promise<void> {
  loadEnvFile();
  const config = loadConfig();
  const dataSource = await new DataSource(await resolveDataSourceOptions(config)).initialize();
  try {
    const verifier = new AuditVerifier(
      new AuditRepository(dataSource),
      new AuditCheckpointsRepository(dataSource),
      new SignaturesRepository(dataSource),
      config,
    );
    const result = await verifier.verify();
    process.stdout.write(verificationReport(result));
    if (!result.ok) process.exitCode = 1;
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`audit:verify failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
