import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkLog1795472000000 implements MigrationInterface {
  name = 'WorkLog1795472000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "step_forms" ("form_revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guideid" integer NOT NULL, "stepid" integer NOT NULL, "signoff_teamid" integer, "removed" boolean NOT NULL DEFAULT (0), "userid" integer NOT NULL, "date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_step_forms_guide" ON "step_forms" ("guideid", "stepid", "form_revisionid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "step_form_fields" ("field_revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "form_revisionid" integer NOT NULL, "guideid" integer NOT NULL, "stepid" integer NOT NULL, "orderby" integer NOT NULL, "field_guid" varchar(16) NOT NULL, "label" varchar(255) NOT NULL, "field_type" varchar(20) NOT NULL, "required" boolean NOT NULL DEFAULT (0), "placeholder" varchar(255) NOT NULL DEFAULT (''), "textarea" boolean NOT NULL DEFAULT (0), "options" json NOT NULL, "unit" varchar(32), "min_value" double, "max_value" double)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_step_form_fields_guid" ON "step_form_fields" ("field_guid", "stepid") `);
    await queryRunner.query(
      `CREATE INDEX "idx_step_form_fields_form" ON "step_form_fields" ("form_revisionid", "orderby") `,
    );
    await queryRunner.query(
      `CREATE TABLE "work_log_entries" ("entryid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guideid" integer NOT NULL, "userid" integer NOT NULL, "workorderid" varchar(255) NOT NULL, "status" varchar(16) NOT NULL, "starttime" bigint NOT NULL, "endtime" bigint, "guide_revisionid" integer NOT NULL, "max_form_revisionid" integer NOT NULL, "releaseid" integer, "release_version" varchar(20), "paused_seconds" integer NOT NULL DEFAULT (0), "paused_at" bigint, "current_stepid" integer, "timingid" integer, "write_count" integer NOT NULL DEFAULT (0), "deleted" boolean NOT NULL DEFAULT (0))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_work_log_entries_status" ON "work_log_entries" ("status", "guideid") `);
    await queryRunner.query(`CREATE INDEX "idx_work_log_entries_user" ON "work_log_entries" ("userid", "entryid") `);
    await queryRunner.query(`CREATE INDEX "idx_work_log_entries_guide" ON "work_log_entries" ("guideid", "entryid") `);
    await queryRunner.query(
      `CREATE TABLE "work_log_timings" ("timingid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "entryid" integer NOT NULL, "stepid" integer NOT NULL, "date_start" bigint NOT NULL, "date_end" bigint)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_work_log_timings_entry" ON "work_log_timings" ("entryid", "timingid") `);
    await queryRunner.query(
      `CREATE TABLE "work_log_data" ("dataid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "entryid" integer NOT NULL, "field_revisionid" integer NOT NULL, "field_guid" varchar(16) NOT NULL, "stepid" integer NOT NULL, "label" varchar(255) NOT NULL, "value" text NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_work_log_data_entry" ON "work_log_data" ("entryid", "dataid") `);
    await queryRunner.query(
      `CREATE TABLE "work_log_signoffs" ("signoffid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "entryid" integer NOT NULL, "stepid" integer NOT NULL, "teamid" integer NOT NULL, "status" varchar(16) NOT NULL, "requested_by" integer NOT NULL, "requested_date" bigint NOT NULL, "signer_userid" integer, "signatureid" integer, "date" bigint)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_work_log_signoffs_status" ON "work_log_signoffs" ("status", "signoffid") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_work_log_signoffs_entry" ON "work_log_signoffs" ("entryid", "stepid", "status") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_work_log_signoffs_entry"`);
    await queryRunner.query(`DROP INDEX "idx_work_log_signoffs_status"`);
    await queryRunner.query(`DROP TABLE "work_log_signoffs"`);
    await queryRunner.query(`DROP INDEX "idx_work_log_data_entry"`);
    await queryRunner.query(`DROP TABLE "work_log_data"`);
    await queryRunner.query(`DROP INDEX "idx_work_log_timings_entry"`);
    await queryRunner.query(`DROP TABLE "work_log_timings"`);
    await queryRunner.query(`DROP INDEX "idx_work_log_entries_guide"`);
    await queryRunner.query(`DROP INDEX "idx_work_log_entries_user"`);
    await queryRunner.query(`DROP INDEX "idx_work_log_entries_status"`);
    await queryRunner.query(`DROP TABLE "work_log_entries"`);
    await queryRunner.query(`DROP INDEX "idx_step_form_fields_form"`);
    await queryRunner.query(`DROP INDEX "idx_step_form_fields_guid"`);
    await queryRunner.query(`DROP TABLE "step_form_fields"`);
    await queryRunner.query(`DROP INDEX "idx_step_forms_guide"`);
    await queryRunner.query(`DROP TABLE "step_forms"`);
  }
}
