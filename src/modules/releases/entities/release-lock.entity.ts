import { Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per (doctype, docid, langid) that ever had a release: creating or moving a release locks it
 * (an upsert that takes the row lock on MySQL; SQLite transactions are serialized already), so that the pending
 * guard and the version number are decided by one transaction at a time.
 */
@Entity({ name: 'release_locks' })
export class ReleaseLockEntity {
  @PrimaryColumn({ name: 'doctype', type: 'varchar', length: 8 })
  doctype: string;

  @PrimaryColumn({ name: 'docid', type: 'int' })
  docid: number;

  @PrimaryColumn({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;
}
