import { MigrationInterface, QueryRunner } from 'typeorm';

/** training_imports.preview_json becomes a JSON column, as on MySQL/MariaDB (the table is rebuilt; rows kept). */
export class TrainingImportPreview1795479000000 implements MigrationInterface {
  name = 'TrainingImportPreview1795479000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_training_imports_module"`);
    await queryRunner.query(`DROP INDEX "uq_training_imports_running"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_training_imports" ("importid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "moduleid" integer NOT NULL, "versionid" integer NOT NULL, "source" varchar(8), "status" varchar(16) NOT NULL, "running_slot" integer, "percent" integer NOT NULL, "bytes_done" bigint NOT NULL, "bytes_total" bigint, "warnings_json" text NOT NULL, "error_code" varchar(32), "error_message" varchar(1000), "url" varchar(2048), "preview_json" text, "userid" integer NOT NULL, "created_date" bigint NOT NULL, "finished_date" bigint)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_training_imports"("importid", "moduleid", "versionid", "source", "status", "running_slot", "percent", "bytes_done", "bytes_total", "warnings_json", "error_code", "error_message", "url", "preview_json", "userid", "created_date", "finished_date") SELECT "importid", "moduleid", "versionid", "source", "status", "running_slot", "percent", "bytes_done", "bytes_total", "warnings_json", "error_code", "error_message", "url", "preview_json", "userid", "created_date", "finished_date" FROM "training_imports"`,
    );
    await queryRunner.query(`DROP TABLE "training_imports"`);
    await queryRunner.query(`ALTER TABLE "temporary_training_imports" RENAME TO "training_imports"`);
    await queryRunner.query(
      `CREATE INDEX "idx_training_imports_module" ON "training_imports" ("moduleid", "importid") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_training_imports_running" ON "training_imports" ("moduleid", "running_slot") `,
    );
    await queryRunner.query(`DROP INDEX "idx_training_imports_module"`);
    await queryRunner.query(`DROP INDEX "uq_training_imports_running"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_training_imports" ("importid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "moduleid" integer NOT NULL, "versionid" integer NOT NULL, "source" varchar(8), "status" varchar(16) NOT NULL, "running_slot" integer, "percent" integer NOT NULL, "bytes_done" bigint NOT NULL, "bytes_total" bigint, "warnings_json" text NOT NULL, "error_code" varchar(32), "error_message" varchar(1000), "url" varchar(2048), "preview_json" json, "userid" integer NOT NULL, "created_date" bigint NOT NULL, "finished_date" bigint)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_training_imports"("importid", "moduleid", "versionid", "source", "status", "running_slot", "percent", "bytes_done", "bytes_total", "warnings_json", "error_code", "error_message", "url", "preview_json", "userid", "created_date", "finished_date") SELECT "importid", "moduleid", "versionid", "source", "status", "running_slot", "percent", "bytes_done", "bytes_total", "warnings_json", "error_code", "error_message", "url", "preview_json", "userid", "created_date", "finished_date" FROM "training_imports"`,
    );
    await queryRunner.query(`DROP TABLE "training_imports"`);
    await queryRunner.query(`ALTER TABLE "temporary_training_imports" RENAME TO "training_imports"`);
    await queryRunner.query(
      `CREATE INDEX "idx_training_imports_module" ON "training_imports" ("moduleid", "importid") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_training_imports_running" ON "training_imports" ("moduleid", "running_slot") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "uq_training_imports_running"`);
    await queryRunner.query(`DROP INDEX "idx_training_imports_module"`);
    await queryRunner.query(`ALTER TABLE "training_imports" RENAME TO "temporary_training_imports"`);
    await queryRunner.query(
      `CREATE TABLE "training_imports" ("importid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "moduleid" integer NOT NULL, "versionid" integer NOT NULL, "source" varchar(8), "status" varchar(16) NOT NULL, "running_slot" integer, "percent" integer NOT NULL, "bytes_done" bigint NOT NULL, "bytes_total" bigint, "warnings_json" text NOT NULL, "error_code" varchar(32), "error_message" varchar(1000), "url" varchar(2048), "preview_json" text, "userid" integer NOT NULL, "created_date" bigint NOT NULL, "finished_date" bigint)`,
    );
    await queryRunner.query(
      `INSERT INTO "training_imports"("importid", "moduleid", "versionid", "source", "status", "running_slot", "percent", "bytes_done", "bytes_total", "warnings_json", "error_code", "error_message", "url", "preview_json", "userid", "created_date", "finished_date") SELECT "importid", "moduleid", "versionid", "source", "status", "running_slot", "percent", "bytes_done", "bytes_total", "warnings_json", "error_code", "error_message", "url", "preview_json", "userid", "created_date", "finished_date" FROM "temporary_training_imports"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_training_imports"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_training_imports_running" ON "training_imports" ("moduleid", "running_slot") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_training_imports_module" ON "training_imports" ("moduleid", "importid") `,
    );
    await queryRunner.query(`DROP INDEX "uq_training_imports_running"`);
    await queryRunner.query(`DROP INDEX "idx_training_imports_module"`);
    await queryRunner.query(`ALTER TABLE "training_imports" RENAME TO "temporary_training_imports"`);
    await queryRunner.query(
      `CREATE TABLE "training_imports" ("importid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "moduleid" integer NOT NULL, "versionid" integer NOT NULL, "source" varchar(8), "status" varchar(16) NOT NULL, "running_slot" integer, "percent" integer NOT NULL, "bytes_done" bigint NOT NULL, "bytes_total" bigint, "warnings_json" text NOT NULL, "error_code" varchar(32), "error_message" varchar(1000), "url" varchar(2048), "preview_json" text, "userid" integer NOT NULL, "created_date" bigint NOT NULL, "finished_date" bigint)`,
    );
    await queryRunner.query(
      `INSERT INTO "training_imports"("importid", "moduleid", "versionid", "source", "status", "running_slot", "percent", "bytes_done", "bytes_total", "warnings_json", "error_code", "error_message", "url", "preview_json", "userid", "created_date", "finished_date") SELECT "importid", "moduleid", "versionid", "source", "status", "running_slot", "percent", "bytes_done", "bytes_total", "warnings_json", "error_code", "error_message", "url", "preview_json", "userid", "created_date", "finished_date" FROM "temporary_training_imports"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_training_imports"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_training_imports_running" ON "training_imports" ("moduleid", "running_slot") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_training_imports_module" ON "training_imports" ("moduleid", "importid") `,
    );
  }
}
