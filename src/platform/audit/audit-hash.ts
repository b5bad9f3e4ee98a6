import { createHash } from 'node:crypto';
import { canonicalJson } from '../../common/security/canonical-json';

/** What a row's hash covers: everything but its own id and hashes. */
export interface AuditContent {
  occurredAt: number;
  actorUserid: number | null;
  actorName: string | null;
  action: string;
  entityType: string;
  entityId: string;
  before: unknown;
  after: unknown;
  reason: string | null;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** SHA-256 (hex) of the previous row's hash followed by the canonical JSON of this row's content. */
export function auditHash(prevHash: string | null, content: AuditContent): string {
  const {
    occurredAt,
    actorUserid,
    actorName,
    action,
    entityType,
    entityId,
    before,
    after,
    reason,
    requestId,
    ip,
    userAgent,
  } = content;
  const canonical = canonicalJson({
    occurredAt,
    actorUserid,
    actorName,
    action,
    entityType,
    entityId,
    before: before ?? null,
    after: after ?? null,
    reason,
    requestId,
    ip,
    userAgent,
  });
  return createHash('sha256')
    .update(prevHash ?? '')
    .update(canonical)
    .digest('hex');
}
