import type { AuditCheckpointDto } from './dto/audit-checkpoint.dto';
import type { AuditEventDto } from './dto/audit-event.dto';
import type { AuditCheckpointEntity } from './entities/audit-checkpoint.entity';
import type { AuditEventEntity } from './entities/audit-event.entity';

export const toAuditEventDto = (row: AuditEventEntity): AuditEventDto => ({
  auditid: row.auditid,
  date: Math.floor(row.occurredAt / 1000),
  actor: row.actorUserid === null ? null : { userid: row.actorUserid, username: row.actorName ?? '' },
  action: row.action,
  entity_type: row.entityType,
  entity_id: row.entityId,
  before: row.before ?? null,
  after: row.after ?? null,
  reason: row.reason,
  request_id: row.requestId,
  ip: row.ip,
  user_agent: row.userAgent,
  prev_hash: row.prevHash,
  hash: row.hash,
});

export const toAuditCheckpointDto = (row: AuditCheckpointEntity): AuditCheckpointDto => ({
  seq: row.seq,
  date: Math.floor(row.createdAt / 1000),
  legacy_through: row.legacyThrough,
  heads: row.heads.map(([entityType, entityId, auditid, hash]) => ({
    entity_type: entityType,
    entity_id: entityId,
    auditid,
    hash,
  })),
  prev_signature: row.prevSignature,
  signature: row.signature,
});
