import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, MoreThan, type EntityManager } from 'typeorm';
import { insertRows } from '../../database/insert';
import { AuditChainHeadEntity, type ChainHead } from './entities/audit-chain-head.entity';
import { AuditEventEntity } from './entities/audit-event.entity';
import { Database } from '../../database/database';

/** An audited entity: its type and id. */
export type HeadKey = [entityType: string, entityId: string];

export const headKey = (entityType: string, entityId: string): string => `${entityType}\u0000${entityId}`;

/** Locks are taken in one order everywhere (type, then id), so two chains locked together cannot deadlock. */
const compareKeys = (a: HeadKey, b: HeadKey): number =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/** A WHERE clause matching these heads by primary key, grouped by type so that it reads the key's index. */
export function headsWhere(keys: HeadKey[]): { sql: string; params: string[] } {
  const byType = new Map<string, string[]>();
  for (const [type, id] of keys) {
    const ids = byType.get(type);
    if (ids) ids.push(id);
    else byType.set(type, [id]);
  }
  const groups = [...byType].map(([, ids]) => `(entity_type = ? AND entity_id IN (${ids.map(() => '?').join(', ')}))`);
  return { sql: `(${groups.join(' OR ')})`, params: [...byType].flatMap(([type, ids]) => [type, ...ids]) };
}

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
  private readonly database: Database;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  private get isMysql(): boolean {
    return this.dataSource.options.type !== 'better-sqlite3';
  }

  /**
   * MySQL: makes sure the heads' rows exist before they are locked (a placeholder with last_auditid 0 and
   * an empty hash, replaced before the transaction ends). Locking an absent row takes a gap lock, and two
   * transactions that then insert heads into the same gap deadlock; an upsert locks only its own row.
   */
  private async ensureHeads(keys: HeadKey[]): Promise<void> {
    if (!this.isMysql || !keys.length) return;
    await this.manager.query(
      `INSERT INTO audit_chain_heads (entity_type, entity_id, last_auditid, last_hash) VALUES ${keys
        .map(() => "(?, ?, 0, '')")
        .join(', ')} ON DUPLICATE KEY UPDATE entity_id = entity_id`,
      keys.flat(),
    );
  }

  /**
   * The chain heads of entities of any types, locked until the transaction ends (MySQL; SQLite transactions
   * are serial), in one statement (two on MySQL); keyed `type \0 id`. Entities without a chain yet are absent.
   */
  async lockHeads(keys: HeadKey[]): Promise<Map<string, ChainHead>> {
    const heads = new Map<string, ChainHead>();
    if (!keys.length) return heads;
    const unique = [...new Map(keys.map((key) => [headKey(key[0], key[1]), key])).values()].sort(compareKeys);
    await this.ensureHeads(unique);
    const where = headsWhere(unique);
    const rows: { entity_type: string; entity_id: string; last_auditid: number | string; last_hash: string }[] =
      await this.manager.query(
        `SELECT entity_type, entity_id, last_auditid, last_hash FROM audit_chain_heads WHERE ${where.sql}${
          this.isMysql ? ' FOR UPDATE' : ''
        }`,
        where.params,
      );
    for (const row of rows) {
      if (Number(row.last_auditid) === 0) continue;
      heads.set(headKey(row.entity_type, row.entity_id), {
        entityType: row.entity_type,
        entityId: row.entity_id,
        lastAuditid: Number(row.last_auditid),
        lastHash: row.last_hash,
      });
    }
    return heads;
  }

  /**
   * Rows in multi-row INSERTs (insertRows); answers their auditids in order.
   */
  async appendMany(rows: Omit<AuditEventEntity, 'auditid'>[]): Promise<number[]> {
    return insertRows(this.manager, AuditEventEntity, rows);
  }

  /** New chain heads (inserted) and moved ones (updated, and due for the next checkpoint), in one statement. */
  async saveHeads(heads: ChainHead[]): Promise<void> {
    if (!heads.length) return;
    const tuples = heads.map(() => '(?, ?, ?, ?)').join(', ');
    const conflict = this.isMysql
      ? 'ON DUPLICATE KEY UPDATE last_auditid = VALUES(last_auditid), last_hash = VALUES(last_hash), checkpoint_due = 1'
      : 'ON CONFLICT (entity_type, entity_id) DO UPDATE SET last_auditid = excluded.last_auditid, last_hash = excluded.last_hash, checkpoint_due = 1';
    await this.manager.query(
      `INSERT INTO audit_chain_heads (entity_type, entity_id, last_auditid, last_hash) VALUES ${tuples} ${conflict}`,
      heads.flatMap((h) => [h.entityType, h.entityId, h.lastAuditid, h.lastHash]),
    );
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

  /** One chain's rows after `afterId`, in order (verification reads on a chain that grew while it ran). */
  chainAfter(entityType: string, entityId: string, afterId: number): Promise<AuditEventEntity[]> {
    return this.manager.find(AuditEventEntity, {
      where: { entityType, entityId, auditid: MoreThan(afterId) },
      order: { auditid: 'ASC' },
    });
  }

  /** The first `signature.create` row of each of these signatures, by signatureid. */
  async signatureCreations(signatureids: string[]): Promise<Map<string, AuditEventEntity>> {
    const rows = signatureids.length
      ? await this.manager.find(AuditEventEntity, {
          where: { entityType: 'signature', entityId: In(signatureids), action: 'signature.create' },
          order: { auditid: 'ASC' },
        })
      : [];
    const byId = new Map<string, AuditEventEntity>();
    for (const row of rows) if (!byId.has(row.entityId)) byId.set(row.entityId, row);
    return byId;
  }
}
