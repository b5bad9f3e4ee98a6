import type { DataSource } from 'typeorm';
import { AuditVerifier, type AuditVerification } from '../../src/platform/audit/audit-verifier';
import type { TestApp } from './test-app';
import { usingMysql } from './test-config';

/**
 * Lifts the append-only triggers of these tables for a tampering simulation (what a database writer with
 * DROP TRIGGER can do), then puts them back.
 */
export async function withoutTriggers(
  dataSource: DataSource,
  tables: string[],
  work: () => Promise<void>,
): Promise<void> {
  const mysql = usingMysql();
  const triggers: { name: string; sql: string }[] = [];
  for (const table of tables) {
    if (mysql) {
      const rows = await dataSource.query<{ Trigger: string; Event: string; Timing: string; Statement: string }[]>(
        `SHOW TRIGGERS WHERE \`Table\` = '${table}'`,
      );
      for (const r of rows)
        triggers.push({
          name: r.Trigger,
          sql: `CREATE TRIGGER \`${r.Trigger}\` ${r.Timing} ${r.Event} ON \`${table}\` FOR EACH ROW ${r.Statement}`,
        });
    } else {
      triggers.push(
        ...(await dataSource.query<{ name: string; sql: string }[]>(
          "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?",
          [table],
        )),
      );
    }
  }
  for (const trigger of triggers)
    await dataSource.query(`DROP TRIGGER ${mysql ? `\`${trigger.name}\`` : `"${trigger.name}"`}`);
  try {
    await work();
  } finally {
    for (const trigger of triggers) await dataSource.query(trigger.sql);
  }
}

/** The verification of the app's audit log. */
export const verifyAudit = (t: TestApp): Promise<AuditVerification> => t.app.get(AuditVerifier).verify();

/** The breaks of a verification as [kind, entity type, entity id] (order of discovery). */
export const breaksOf = (result: AuditVerification): [string, string, string][] =>
  result.breaks.map((b) => [b.kind, b.entityType, b.entityId]);
