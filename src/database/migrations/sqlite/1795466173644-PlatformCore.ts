import { MigrationInterface, QueryRunner } from 'typeorm';
import { addAppendOnlyTriggers, dropAppendOnlyTriggers } from '../append-only-triggers';

export class PlatformCore1795466173644 implements MigrationInterface {
  name = 'PlatformCore1795466173644';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "course_stages" ("course_stageid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "course_wikiid" integer NOT NULL, "orderby" integer NOT NULL, "doctype" varchar(8), "docid" integer, "quizid" integer, "passing_score" integer, "moduleid" integer)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_course_stages_module" ON "course_stages" ("moduleid") `);
    await queryRunner.query(`CREATE INDEX "idx_course_stages_quiz" ON "course_stages" ("quizid") `);
    await queryRunner.query(`CREATE INDEX "idx_course_stages_course" ON "course_stages" ("course_wikiid", "orderby") `);
    await queryRunner.query(
      `CREATE TABLE "domain_events" ("eventid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(100) NOT NULL, "entity_type" varchar(50) NOT NULL, "entity_id" varchar(100) NOT NULL, "payload" json NOT NULL, "request_id" varchar(200), "occurred_at" bigint NOT NULL, "dispatched_at" bigint, "attempts" integer NOT NULL DEFAULT (0), "next_attempt_at" bigint NOT NULL DEFAULT (0), "last_error" varchar(1000), "failed_at" bigint)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_domain_events_entity" ON "domain_events" ("entity_type", "entity_id", "eventid") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_domain_events_pending" ON "domain_events" ("dispatched_at", "eventid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "event_deliveries" ("subscriber" varchar(100) NOT NULL, "eventid" integer NOT NULL, "delivered_at" bigint NOT NULL, PRIMARY KEY ("subscriber", "eventid"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "jobs" ("jobid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(100) NOT NULL, "payload" json NOT NULL, "status" varchar(16) NOT NULL, "run_at" bigint NOT NULL, "attempts" integer NOT NULL DEFAULT (0), "max_attempts" integer NOT NULL, "unique_key" varchar(200), "locked_by" varchar(100), "locked_until" bigint, "last_error" varchar(1000), "created_at" bigint NOT NULL, "finished_at" bigint)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_jobs_unique_key" ON "jobs" ("unique_key") `);
    await queryRunner.query(`CREATE INDEX "idx_jobs_due" ON "jobs" ("status", "run_at") `);
    await queryRunner.query(
      `CREATE TABLE "scheduler_locks" ("name" varchar(100) PRIMARY KEY NOT NULL, "locked_by" varchar(100), "locked_until" bigint NOT NULL, "last_run_at" bigint)`,
    );
    await queryRunner.query(
      `CREATE TABLE "audit_events" ("auditid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "occurred_at" bigint NOT NULL, "actor_userid" integer, "actor_name" varchar(255), "action" varchar(100) NOT NULL, "entity_type" varchar(50) NOT NULL, "entity_id" varchar(100) NOT NULL, "before_json" json, "after_json" json, "reason" varchar(2000), "request_id" varchar(200), "ip" varchar(64), "user_agent" varchar(500), "prev_hash" varchar(64), "hash" varchar(64) NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_audit_time" ON "audit_events" ("occurred_at") `);
    await queryRunner.query(`CREATE INDEX "idx_audit_action" ON "audit_events" ("action", "auditid") `);
    await queryRunner.query(`CREATE INDEX "idx_audit_actor" ON "audit_events" ("actor_userid", "auditid") `);
    await queryRunner.query(
      `CREATE INDEX "idx_audit_entity" ON "audit_events" ("entity_type", "entity_id", "auditid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "audit_chain_heads" ("entity_type" varchar(50) NOT NULL, "entity_id" varchar(100) NOT NULL, "last_auditid" integer NOT NULL, "last_hash" varchar(64) NOT NULL, PRIMARY KEY ("entity_type", "entity_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "signatures" ("signatureid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "subject_type" varchar(50) NOT NULL, "subject_id" varchar(100) NOT NULL, "userid" integer NOT NULL, "printed_name" varchar(255) NOT NULL, "meaning" varchar(20) NOT NULL, "note" varchar(5000) NOT NULL DEFAULT (''), "signed_at" bigint NOT NULL, "auth_method" varchar(20) NOT NULL, "record_hash" varchar(64) NOT NULL, "request_id" varchar(200))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_signatures_user" ON "signatures" ("userid", "signatureid") `);
    await queryRunner.query(`CREATE INDEX "idx_signatures_subject" ON "signatures" ("subject_type", "subject_id") `);
    await queryRunner.query(
      `CREATE TABLE "signature_failures" ("failureid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "userid" integer NOT NULL, "failed_at" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_signature_failures_user" ON "signature_failures" ("userid", "failed_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "signature_lockouts" ("userid" integer PRIMARY KEY NOT NULL, "locked_until" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE TABLE "sign_codes" ("codeid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "userid" integer NOT NULL, "subject_type" varchar(50) NOT NULL, "subject_id" varchar(100) NOT NULL, "stage" varchar(50) NOT NULL DEFAULT (''), "code_hash" varchar(64) NOT NULL, "created_at" bigint NOT NULL, "expires_at" bigint NOT NULL, "spent_at" bigint)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_sign_codes_binding" ON "sign_codes" ("userid", "subject_type", "subject_id", "created_at") `,
    );
    await addAppendOnlyTriggers(queryRunner, 'sqlite', 'audit_events');
    await addAppendOnlyTriggers(queryRunner, 'sqlite', 'signatures');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropAppendOnlyTriggers(queryRunner, 'sqlite', 'signatures');
    await dropAppendOnlyTriggers(queryRunner, 'sqlite', 'audit_events');
    await queryRunner.query(`DROP INDEX "idx_sign_codes_binding"`);
    await queryRunner.query(`DROP TABLE "sign_codes"`);
    await queryRunner.query(`DROP TABLE "signature_lockouts"`);
    await queryRunner.query(`DROP INDEX "idx_signature_failures_user"`);
    await queryRunner.query(`DROP TABLE "signature_failures"`);
    await queryRunner.query(`DROP INDEX "idx_signatures_subject"`);
    await queryRunner.query(`DROP INDEX "idx_signatures_user"`);
    await queryRunner.query(`DROP TABLE "signatures"`);
    await queryRunner.query(`DROP TABLE "audit_chain_heads"`);
    await queryRunner.query(`DROP INDEX "idx_audit_entity"`);
    await queryRunner.query(`DROP INDEX "idx_audit_actor"`);
    await queryRunner.query(`DROP INDEX "idx_audit_action"`);
    await queryRunner.query(`DROP INDEX "idx_audit_time"`);
    await queryRunner.query(`DROP TABLE "audit_events"`);
    await queryRunner.query(`DROP TABLE "scheduler_locks"`);
    await queryRunner.query(`DROP INDEX "idx_jobs_due"`);
    await queryRunner.query(`DROP INDEX "uq_jobs_unique_key"`);
    await queryRunner.query(`DROP TABLE "jobs"`);
    await queryRunner.query(`DROP TABLE "event_deliveries"`);
    await queryRunner.query(`DROP INDEX "idx_domain_events_pending"`);
    await queryRunner.query(`DROP INDEX "idx_domain_events_entity"`);
    await queryRunner.query(`DROP TABLE "domain_events"`);
    await queryRunner.query(`DROP INDEX "idx_course_stages_course"`);
    await queryRunner.query(`DROP INDEX "idx_course_stages_quiz"`);
    await queryRunner.query(`DROP INDEX "idx_course_stages_module"`);
    await queryRunner.query(`DROP TABLE "course_stages"`);
  }
}
