import { MigrationInterface, QueryRunner } from 'typeorm';

export class Approvals1795471000000 implements MigrationInterface {
  name = 'Approvals1795471000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "approval_processes" ("approval_processid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "current_revisionid" integer NOT NULL, "name" varchar(255) NOT NULL, "site_default" boolean NOT NULL DEFAULT (0), "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_approval_processes_default" ON "approval_processes" ("site_default") `);
    await queryRunner.query(
      `CREATE TABLE "approval_process_revisions" ("approval_process_revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "approval_processid" integer NOT NULL, "name" varchar(255) NOT NULL, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_approval_process_revisions_process" ON "approval_process_revisions" ("approval_processid", "approval_process_revisionid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "approval_process_stages" ("approval_process_stageid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "approval_process_revisionid" integer NOT NULL, "orderby" integer NOT NULL, "userid" integer, "teamid" integer, "required_signatures" integer NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "idx_approval_process_stages_revision" ON "approval_process_stages" ("approval_process_revisionid", "orderby") `,
    );
    await queryRunner.query(
      `CREATE TABLE "approval_assignments" ("doctype" varchar(8) NOT NULL, "docid" integer NOT NULL, "slot" varchar(8) NOT NULL, "approval_processid" integer NOT NULL, PRIMARY KEY ("doctype", "docid", "slot"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_approval_assignments_process" ON "approval_assignments" ("approval_processid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "approval_requests" ("approval_requestid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "status" varchar(16) NOT NULL, "releaseid" integer NOT NULL, "doctype" varchar(8) NOT NULL, "docid" integer NOT NULL, "langid" varchar(16) NOT NULL, "revisionid" integer NOT NULL, "document_title" varchar(255) NOT NULL, "requested_by" integer NOT NULL, "approval_processid" integer NOT NULL, "approval_process_revisionid" integer NOT NULL, "process_name" varchar(255) NOT NULL, "current_stage" integer, "stage_count" integer NOT NULL, "init_date" bigint NOT NULL, "end_date" bigint)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_approval_requests_document" ON "approval_requests" ("doctype", "docid", "approval_requestid") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_approval_requests_release" ON "approval_requests" ("releaseid") `);
    await queryRunner.query(
      `CREATE INDEX "idx_approval_requests_requester" ON "approval_requests" ("requested_by", "approval_requestid") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_approval_requests_status" ON "approval_requests" ("status", "approval_requestid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "approval_request_stages" ("approval_request_stageid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "approval_requestid" integer NOT NULL, "orderby" integer NOT NULL, "status" varchar(16) NOT NULL, "userid" integer, "teamid" integer, "required_signatures" integer NOT NULL, "init_date" bigint, "end_date" bigint)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_approval_request_stages_team" ON "approval_request_stages" ("teamid", "approval_requestid") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_approval_request_stages_user" ON "approval_request_stages" ("userid", "approval_requestid") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "idx_approval_request_stages_request" ON "approval_request_stages" ("approval_requestid", "orderby") `,
    );
    await queryRunner.query(
      `CREATE TABLE "approval_stage_signatures" ("approval_requestid" integer NOT NULL, "orderby" integer NOT NULL, "userid" integer NOT NULL, "signatureid" integer NOT NULL, "decision" varchar(8) NOT NULL, PRIMARY KEY ("approval_requestid", "orderby", "userid"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "idx_approval_stage_signatures_signature" ON "approval_stage_signatures" ("signatureid") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_approval_stage_signatures_signature"`);
    await queryRunner.query(`DROP TABLE "approval_stage_signatures"`);
    await queryRunner.query(`DROP INDEX "idx_approval_request_stages_request"`);
    await queryRunner.query(`DROP INDEX "idx_approval_request_stages_user"`);
    await queryRunner.query(`DROP INDEX "idx_approval_request_stages_team"`);
    await queryRunner.query(`DROP TABLE "approval_request_stages"`);
    await queryRunner.query(`DROP INDEX "idx_approval_requests_status"`);
    await queryRunner.query(`DROP INDEX "idx_approval_requests_requester"`);
    await queryRunner.query(`DROP INDEX "idx_approval_requests_release"`);
    await queryRunner.query(`DROP INDEX "idx_approval_requests_document"`);
    await queryRunner.query(`DROP TABLE "approval_requests"`);
    await queryRunner.query(`DROP INDEX "idx_approval_assignments_process"`);
    await queryRunner.query(`DROP TABLE "approval_assignments"`);
    await queryRunner.query(`DROP INDEX "idx_approval_process_stages_revision"`);
    await queryRunner.query(`DROP TABLE "approval_process_stages"`);
    await queryRunner.query(`DROP INDEX "idx_approval_process_revisions_process"`);
    await queryRunner.query(`DROP TABLE "approval_process_revisions"`);
    await queryRunner.query(`DROP INDEX "idx_approval_processes_default"`);
    await queryRunner.query(`DROP TABLE "approval_processes"`);
  }
}
