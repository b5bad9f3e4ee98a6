import { createHash, createHmac } from 'node:crypto';
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

/** `hash_version` of a row: plain SHA-256 (rows written before the log was keyed), or HMAC-SHA256 under the audit key. */
export const HashVersion = { legacy: 1, keyed: 2 } as const;

function canonicalContent(content: AuditContent): string {
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
  return canonicalJson({
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
}

/** HMAC-SHA256 (hex) under the audit key of the previous row's hash followed by the canonical JSON of this row. */
export function keyedAuditHash(key: Buffer, prevHash: string | null, content: AuditContent): string {
  return createHmac('sha256', key)
    .update(prevHash ?? '')
    .update(canonicalContent(content))
    .digest('hex');
}

/** The unkeyed hash of rows written before the upgrade: anyone can recompute it, so it only proves their order. */
export function legacyAuditHash(prevHash: string | null, content: AuditContent): string {
  return createHash('sha256')
    .update(prevHash ?? '')
    .update(canonicalContent(content))
    .digest('hex');
}

/** The hash a row of this version should carry; undefined for a version this code does not know. */
export function auditRowHash(
  version: number,
  key: Buffer,
  prevHash: string | null,
  content: AuditContent,
): string | undefined {
  if (version === HashVersion.keyed) return keyedAuditHash(key, prevHash, content);
  if (version === HashVersion.legacy) return legacyAuditHash(prevHash, content);
  return undefined;
}

/** What a checkpoint's signature covers: every column but the signature. */
export interface CheckpointContent {
  seq: number;
  createdAt: number;
  legacyThrough: number;
  heads: [entityType: string, entityId: string, auditid: number, hash: string][];
  prevSignature: string | null;
}

/** HMAC-SHA256 (hex) under the audit key of a checkpoint's canonical JSON. */
export function checkpointSignature(key: Buffer, checkpoint: CheckpointContent): string {
  const { seq, createdAt, legacyThrough, heads, prevSignature } = checkpoint;
  return createHmac('sha256', key)
    .update(canonicalJson({ seq, createdAt, legacyThrough, heads, prevSignature }))
    .digest('hex');
}
