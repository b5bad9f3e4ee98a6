import { MigrationInterface, QueryRunner } from 'typeorm';

export class TrainingModules1795476000000 implements MigrationInterface {
  name = 'TrainingModules1795476000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "training_modules" ("moduleid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "title" varchar(255) NOT NULL, "description" text NOT NULL, "current_versionid" integer, "draft_versionid" integer, "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE TABLE "training_module_versions" ("versionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "moduleid" integer NOT NULL, "status" varchar(16) NOT NULL, "standard" varchar(16), "title" varchar(255) NOT NULL, "description" text, "launch_path" varchar(2048), "launch_method" varchar(16) NOT NULL, "mastery_score" integer, "move_on" varchar(32), "sco_count" integer NOT NULL, "file_count" integer NOT NULL, "package_bytes" bigint NOT NULL, "package_sha256" varchar(64), "created_date" bigint NOT NULL, "published_date" bigint)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_training_versions_module" ON "training_module_versions" ("moduleid", "versionid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "training_imports" ("importid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "moduleid" integer NOT NULL, "versionid" integer NOT NULL, "source" varchar(8), "status" varchar(16) NOT NULL, "running_slot" integer, "percent" integer NOT NULL, "bytes_done" bigint NOT NULL, "bytes_total" bigint, "warnings_json" text NOT NULL, "error_code" varchar(32), "error_message" varchar(1000), "url" varchar(2048), "preview_json" text, "userid" integer NOT NULL, "created_date" bigint NOT NULL, "finished_date" bigint)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_training_imports_running" ON "training_imports" ("moduleid", "running_slot") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_training_imports_module" ON "training_imports" ("moduleid", "importid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "training_registrations" ("registrationid" varchar(36) PRIMARY KEY NOT NULL, "moduleid" integer NOT NULL, "versionid" integer NOT NULL, "userid" integer NOT NULL, "preview" boolean NOT NULL, "status" varchar(16) NOT NULL, "score_scaled" double, "total_time_s" integer NOT NULL, "location" varchar(1000), "suspend_data" text, "started_date" bigint NOT NULL, "last_commit_date" bigint, "completed_date" bigint)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_training_registrations_module" ON "training_registrations" ("moduleid", "preview", "status") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_training_registrations_user" ON "training_registrations" ("userid", "moduleid", "versionid") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_training_registrations_user"`);
    await queryRunner.query(`DROP INDEX "idx_training_registrations_module"`);
    await queryRunner.query(`DROP TABLE "training_registrations"`);
    await queryRunner.query(`DROP INDEX "idx_training_imports_module"`);
    await queryRunner.query(`DROP INDEX "uq_training_imports_running"`);
    await queryRunner.query(`DROP TABLE "training_imports"`);
    await queryRunner.query(`DROP INDEX "idx_training_versions_module"`);
    await queryRunner.query(`DROP TABLE "training_module_versions"`);
    await queryRunner.query(`DROP TABLE "training_modules"`);
  }
}
