import type { AuditVerification } from './audit-verifier';

/** The text `npm run audit:verify` prints: a summary, then one line per break (chain, row, kind, what). */
export function verificationReport(result: AuditVerification): string {
  const last = result.lastCheckpoint;
  const lines = [
    `audit log ${result.ok ? 'intact' : `BROKEN: ${result.breakCount} break${result.breakCount === 1 ? '' : 's'}`}: ` +
      `${result.rows} rows in ${result.chains} chains (${result.legacyRows} legacy rows with unkeyed hashes), ` +
      `${result.signatures} signatures, ${result.checkpoints} checkpoints`,
    last
      ? `last checkpoint: seq ${last.seq} at ${new Date(last.createdAt).toISOString()}, signature ${last.signature} ` +
        '(compare with the application log)'
      : 'no checkpoint yet',
  ];
  for (const b of result.breaks)
    lines.push(`BREAK ${b.kind}: ${b.entityType} ${b.entityId}, auditid ${b.auditid ?? '-'}: ${b.detail}`);
  if (result.breakCount > result.breaks.length)
    lines.push(`… and ${result.breakCount - result.breaks.length} more breaks`);
  return `${lines.join('\n')}\n`;
}
