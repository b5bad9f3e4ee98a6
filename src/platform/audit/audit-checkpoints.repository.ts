import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, MoreThan, type EntityManager } from 'typeorm';
import { insertRows } from '../../database/insert';
import { placeholders } from '../../database/sql-reader';
import { headsWhere } from './audit.repository';
import { HashVersion } from './audit-hash';
import { AuditCheckpointEntity, type CheckpointHead } from './entities/audit-checkpoint.entity';
import { Database } from '../../database/database';

/** All SQL of the audit checkpoints. There is deliberately no method that updates or deletes one. */
@Injectable()
export class AuditCheckpointsRepository {
  private readonly database: Database;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.database = new Database(dataSource);
  }

  private get manager(): EntityManager {
    return this.database.manager;
  }

  /** Up to `limit` heads that moved since a checkpoint last listed them (any order). */
  async dueHeads(limit: number): Promise<CheckpointHead[]> {
    const rows = await this.manager.query<
      { entity_type: string; entity_id: string; last_auditid: number | string; last_hash: string }[]
    >(
      `SELECT entity_type, entity_id, last_auditid, last_hash FROM audit_chain_heads
        WHERE checkpoint_due = 1 AND last_auditid > 0 LIMIT ${Number(limit)}`,
    );
    return rows.map((r) => [r.entity_type, r.entity_id, Number(r.last_auditid), r.last_hash]);
  }

  /**
   * Marks these heads checkpointed, each only while it is still where the checkpoint saw it (auditids are
   * unique, so a head that moved meanwhile keeps its mark). Reads the heads by primary key: no other row is locked.
   */
  async clearDue(heads: CheckpointHead[]): Promise<void> {
    if (!heads.length) return;
    const where = headsWhere(heads.map(([type, id]) => [type, id]));
    const auditids = heads.map((head) => head[2]);
    await this.manager.query(
      `UPDATE audit_chain_heads SET checkpoint_due = 0 WHERE ${where.sql} AND last_auditid IN (${placeholders(auditids)})`,
      [...where.params, ...auditids],
    );
  }

  last(): Promise<AuditCheckpointEntity | null> {
    return this.manager.findOne(AuditCheckpointEntity, { where: {}, order: { seq: 'DESC' } });
  }

  /** The newest auditid that carries the unkeyed legacy hash (0: none); read once, for the first checkpoint. */
  async lastLegacyAuditid(): Promise<number> {
    const [row] = await this.manager.query<{ id: number | string | null }[]>(
      'SELECT MAX(auditid) AS id FROM audit_events WHERE hash_version = ?',
      [HashVersion.legacy],
    );
    return Number(row?.id ?? 0);
  }

  async insert(checkpoint: AuditCheckpointEntity): Promise<void> {
    await insertRows(this.manager, AuditCheckpointEntity, [checkpoint]);
  }

  /** Newest first (the Admin's read). */
  page(offset: number, limit: number): Promise<AuditCheckpointEntity[]> {
    return this.manager.find(AuditCheckpointEntity, { order: { seq: 'DESC' }, skip: offset, take: limit });
  }

  /** In seq order after `afterSeq`, a batch at a time (verification). */
  batch(afterSeq: number, size: number): Promise<AuditCheckpointEntity[]> {
    return this.manager.find(AuditCheckpointEntity, {
      where: { seq: MoreThan(afterSeq) },
      order: { seq: 'ASC' },
      take: size,
    });
  }
}
