import { auditHash } from './audit-hash';
import type { AuditRepository } from './audit.repository';

export interface AuditVerification {
  ok: boolean;
  rows: number;
  chains: number;
  /** The first row that does not match (or the chain whose head does not match its last row). */
  broken?: { auditid: number | null; entityType: string; entityId: string; problem: string };
}

const BATCH = 1000;

/** Recomputes every chain of the audit log and names the first row that breaks it. */
export async function verifyAuditLog(audit: AuditRepository): Promise<AuditVerification> {
  const last = new Map<string, { hash: string; auditid: number }>();
  let rows = 0;
  for (let afterId = 0; ;) {
    const batch = await audit.batch(afterId, BATCH);
    if (!batch.length) break;
    for (const row of batch) {
      rows += 1;
      const key = `${row.entityType}\u0000${row.entityId}`;
      const expectedPrev = last.get(key)?.hash ?? null;
      const where = { auditid: row.auditid, entityType: row.entityType, entityId: row.entityId };
      if ((row.prevHash ?? null) !== expectedPrev) {
        return {
          ok: false,
          rows,
          chains: last.size,
          broken: {
            ...where,
            problem: 'prev_hash does not match the previous row of this entity (a row was removed or reordered)',
          },
        };
      }
      if (auditHash(row.prevHash, row) !== row.hash) {
        return {
          ok: false,
          rows,
          chains: last.size,
          broken: { ...where, problem: 'hash does not match the row content (the row was changed)' },
        };
      }
      last.set(key, { hash: row.hash, auditid: row.auditid });
    }
    afterId = batch[batch.length - 1].auditid;
  }
  const heads = await audit.heads();
  const headed = new Set(heads.map((head) => `${head.entityType}\u0000${head.entityId}`));
  for (const [key, tail] of last) {
    if (!headed.has(key)) {
      const [entityType, entityId] = key.split('\u0000');
      return {
        ok: false,
        rows,
        chains: last.size,
        broken: {
          auditid: tail.auditid,
          entityType,
          entityId,
          problem: 'the chain has no head record (it was removed)',
        },
      };
    }
  }
  for (const head of heads) {
    const tail = last.get(`${head.entityType}\u0000${head.entityId}`);
    if (!tail || tail.hash !== head.lastHash || tail.auditid !== head.lastAuditid) {
      return {
        ok: false,
        rows,
        chains: last.size,
        broken: {
          auditid: head.lastAuditid,
          entityType: head.entityType,
          entityId: head.entityId,
          problem: 'the chain ends before its recorded head (its newest rows were removed)',
        },
      };
    }
  }
  return { ok: true, rows, chains: last.size };
}
