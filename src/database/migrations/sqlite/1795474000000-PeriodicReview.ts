import { MigrationInterface, QueryRunner } from 'typeorm';

export class PeriodicReview1795474000000 implements MigrationInterface {
  name = 'PeriodicReview1795474000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "periodic_review_schedules" ("prsid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(255) NOT NULL, "recurrence_type" varchar(16) NOT NULL, "annual_month" integer, "annual_day" integer, "interval_days" integer, "completion_window_days" integer NOT NULL, "default_reviewer_userid" integer, "default_teamid" integer, "created_by_userid" integer NOT NULL, "created_date" bigint NOT NULL, "deleted_date" bigint)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_pr_schedules_live" ON "periodic_review_schedules" ("deleted_date", "prsid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "periodic_review_documents" ("prdid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "prsid" integer NOT NULL, "doctype" varchar(8) NOT NULL, "docid" integer NOT NULL, "reviewer_userid" integer, "member_slot" integer, "added_date" bigint NOT NULL, "last_reviewed_date" bigint, "next_due_date" bigint NOT NULL, "notified_state" varchar(16) NOT NULL, "removed_date" bigint)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_pr_documents_due" ON "periodic_review_documents" ("member_slot", "next_due_date") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_pr_documents_schedule" ON "periodic_review_documents" ("prsid", "member_slot", "prdid") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_pr_documents_member" ON "periodic_review_documents" ("doctype", "docid", "member_slot") `,
    );
    await queryRunner.query(
      `CREATE TABLE "periodic_reviews" ("reviewid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "prdid" integer NOT NULL, "doctype" varchar(8) NOT NULL, "docid" integer NOT NULL, "revisionid" integer, "userid" integer NOT NULL, "outcome" varchar(24) NOT NULL, "notes" text NOT NULL, "source" varchar(16) NOT NULL, "releaseid" integer, "signatureid" integer, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_pr_reviews_document" ON "periodic_reviews" ("doctype", "docid", "reviewid") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_pr_reviews_user" ON "periodic_reviews" ("userid", "reviewid") `);
    await queryRunner.query(
      `CREATE TABLE "periodic_review_change_requests" ("requestid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "reviewid" integer NOT NULL, "doctype" varchar(8) NOT NULL, "docid" integer NOT NULL, "assignee_userid" integer NOT NULL, "requested_by_userid" integer NOT NULL, "description" text NOT NULL, "status" varchar(16) NOT NULL, "resolved_by_releaseid" integer, "created_date" bigint NOT NULL, "resolved_date" bigint)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_pr_requests_document" ON "periodic_review_change_requests" ("doctype", "docid", "status") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_pr_requests_assignee" ON "periodic_review_change_requests" ("assignee_userid", "status", "requestid") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_pr_requests_assignee"`);
    await queryRunner.query(`DROP INDEX "idx_pr_requests_document"`);
    await queryRunner.query(`DROP TABLE "periodic_review_change_requests"`);
    await queryRunner.query(`DROP INDEX "idx_pr_reviews_user"`);
    await queryRunner.query(`DROP INDEX "idx_pr_reviews_document"`);
    await queryRunner.query(`DROP TABLE "periodic_reviews"`);
    await queryRunner.query(`DROP INDEX "uq_pr_documents_member"`);
    await queryRunner.query(`DROP INDEX "idx_pr_documents_schedule"`);
    await queryRunner.query(`DROP INDEX "idx_pr_documents_due"`);
    await queryRunner.query(`DROP TABLE "periodic_review_documents"`);
    await queryRunner.query(`DROP INDEX "idx_pr_schedules_live"`);
    await queryRunner.query(`DROP TABLE "periodic_review_schedules"`);
  }
}
