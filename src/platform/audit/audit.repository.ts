import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { insertRows } from '../../database/insert';
import { AuditChainHeadEntity } from './entities/audit-chain-head.entity';
import { AuditEventEntity } from './entities/audit-event.entity';

export interface AuditFilter {
  entityType?: string;
  entityId?: string;
  actorUserid?: number;
  /** An exact action, or a prefix ending in `.` (`release.`). */
  action?: string;
  fromMs?: number;
  toMs?: number;
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

/** All SQL of the audit log. There is deliberately no method that updates or deletes a row. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get manager(): EntityManager {
    return this.dataSource.manager;
  }

  private get isMysql(): boolean {
    return this.dataSource.options.type !== 'better-sqlite3';
  }

  /**
   * MySQL: makes sure the heads' rows exist before they are locked (a placeholder with last_auditid 0 and
   * an empty hash, replaced before the transaction ends). Locking an absent row takes a gap lock, and two
   * transactions that then insert heads into the same gap deadlock; an upsert locks only its own row.
   */
  private async ensureHeads(entityType: string, entityIds: string[]): Promise<void> {
    if (!this.isMysql || !entityIds.length) return;
    await this.manager.query(
      `INSERT INTO audit_chain_heads (entity_type, entity_id, last_auditid, last_hash) VALUES ${entityIds
        .map(() => "(?, ?, 0, '')")
        .join(', ')} ON DUPLICATE KEY UPDATE entity_id = entity_id`,
      entityIds.flatMap((id) => [entityType, id]),
    );
  }

  /** The chain head of an entity, locked until the transaction ends (MySQL; SQLite transactions are serial). */
  async lockHead(entityType: string, entityId: string): Promise<AuditChainHeadEntity | null> {
    await this.ensureHeads(entityType, [entityId]);
    const rows: { last_auditid: number | string; last_hash: string }[] = await this.manager.query(
      `SELECT last_auditid, last_hash FROM audit_chain_heads WHERE entity_type = ? AND entity_id = ?${
        this.isMysql ? ' FOR UPDATE' : ''
      }`,
      [entityType, entityId],
    );
    const row = rows[0];
    if (!row || Number(row.last_auditid) === 0) return null;
    return { entityType, entityId, lastAuditid: Number(row.last_auditid), lastHash: row.last_hash };
  }

  /** The chain heads of entities of one type, locked until the transaction ends (MySQL), in one statement. */
  async lockHeads(entityType: string, entityIds: string[]): Promise<Map<string, AuditChainHeadEntity>> {
    if (!entityIds.length) return new Map();
    await this.ensureHeads(entityType, [...new Set(entityIds)]);
    const query = this.manager
      .createQueryBuilder(AuditChainHeadEntity, 'h')
      .where('h.entity_type = :entityType AND h.entity_id IN (:...entityIds)', {
        entityType,
        entityIds: [...new Set(entityIds)],
      });
    if (this.isMysql) query.setLock('pessimistic_write');
    return new Map(
      (await query.getMany()).filter((head) => head.lastAuditid !== 0).map((head) => [head.entityId, head]),
    );
  }

  /**
   * Rows in multi-row INSERTs (insertRows); answers their auditids in order.
   */
  async appendMany(rows: Omit<AuditEventEntity, 'auditid'>[]): Promise<number[]> {
    return insertRows(this.manager, AuditEventEntity, rows);
  }

  /** New chain heads (inserted) and moved ones (updated), in one statement. */
  async saveHeads(heads: AuditChainHeadEntity[]): Promise<void> {
    if (!heads.length) return;
    const tuples = heads.map(() => '(?, ?, ?, ?)').join(', ');
    const conflict = this.isMysql
      ? 'ON DUPLICATE KEY UPDATE last_auditid = VALUES(last_auditid), last_hash = VALUES(last_hash)'
      : 'ON CONFLICT (entity_type, entity_id) DO UPDATE SET last_auditid = excluded.last_auditid, last_hash = excluded.last_hash';
    await this.manager.query(
      `INSERT INTO audit_chain_heads (entity_type, entity_id, last_auditid, last_hash) VALUES ${tuples} ${conflict}`,
      heads.flatMap((h) => [h.entityType, h.entityId, h.lastAuditid, h.lastHash]),
    );
  }

  async append(row: Omit<AuditEventEntity, 'auditid'>): Promise<number> {
    const [auditid] = await insertRows(this.manager, AuditEventEntity, [row]);
    await this.saveHeads([
      { entityType: row.entityType, entityId: row.entityId, lastAuditid: auditid, lastHash: row.hash },
    ]);
    return auditid;
  }

  list(filter: AuditFilter): Promise<AuditEventEntity[]> {
    const query = this.manager.createQueryBuilder(AuditEventEntity, 'a');
    if (filter.entityType !== undefined)
      query.andWhere('a.entity_type = :entityType', { entityType: filter.entityType });
    if (filter.entityId !== undefined) query.andWhere('a.entity_id = :entityId', { entityId: filter.entityId });
    if (filter.actorUserid !== undefined) query.andWhere('a.actor_userid = :actor', { actor: filter.actorUserid });
    if (filter.action !== undefined) {
      if (filter.action.endsWith('.'))
        query.andWhere('a.action LIKE :action', { action: `${filter.action.replace(/[%_\\]/g, '\\$&')}%` });
      else query.andWhere('a.action = :action', { action: filter.action });
    }
    if (filter.fromMs !== undefined) query.andWhere('a.occurred_at >= :from', { from: filter.fromMs });
    if (filter.toMs !== undefined) query.andWhere('a.occurred_at <= :to', { to: filter.toMs });
    return query.orderBy('a.auditid', filter.order).offset(filter.offset).limit(filter.limit).getMany();
  }

  /** Rows in id order from `afterId`, a batch at a time (verification). */
  batch(afterId: number, size: number): Promise<AuditEventEntity[]> {
    return this.manager
      .createQueryBuilder(AuditEventEntity, 'a')
      .where('a.auditid > :afterId', { afterId })
      .orderBy('a.auditid', 'ASC')
      .limit(size)
      .getMany();
  }

  heads(): Promise<AuditChainHeadEntity[]> {
    return this.manager.find(AuditChainHeadEntity);
  }
}
