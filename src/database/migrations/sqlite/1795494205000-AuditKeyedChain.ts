import { MigrationInterface, QueryRunner } from 'typeorm';
import { addAppendOnlyTriggers, dropAppendOnlyTriggers } from '../append-only-triggers';

/**
 * The keyed audit chain: `audit_events.hash_version` (rows already there keep their plain SHA-256 and are
 * marked 1), `audit_chain_heads.checkpoint_due` (every head is due for the first checkpoint), and the
 * append-only `audit_checkpoints`.
 */
export class AuditKeyedChain1795494205000 implements MigrationInterface {
  name = 'AuditKeyedChain1795494205000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_events" ADD COLUMN "hash_version" integer NOT NULL DEFAULT (1)`);
    await queryRunner.query(`ALTER TABLE "audit_chain_heads" ADD COLUMN "checkpoint_due" boolean NOT NULL DEFAULT (1)`);
    await queryRunner.query(`CREATE INDEX "idx_audit_heads_due" ON "audit_chain_heads" ("checkpoint_due") `);
    await queryRunner.query(
      `CREATE TABLE "audit_checkpoints" ("seq" integer PRIMARY KEY NOT NULL, "created_at" bigint NOT NULL, "legacy_through" integer NOT NULL, "heads_json" json NOT NULL, "prev_signature" varchar(64), "signature" varchar(64) NOT NULL)`,
    );
    await addAppendOnlyTriggers(queryRunner, 'sqlite', 'audit_checkpoints');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropAppendOnlyTriggers(queryRunner, 'sqlite', 'audit_checkpoints');
    await queryRunner.query(`DROP TABLE "audit_checkpoints"`);
    await queryRunner.query(`DROP INDEX "idx_audit_heads_due"`);
    await queryRunner.query(`ALTER TABLE "audit_chain_heads" DROP COLUMN "checkpoint_due"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "hash_version"`);
  }
}
