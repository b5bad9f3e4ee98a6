import { MigrationInterface, QueryRunner } from 'typeorm';

export class Comments1795303106415 implements MigrationInterface {
  name = 'Comments1795303106415';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "comments" ("commentid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "context" varchar(16) NOT NULL, "contextid" integer NOT NULL, "parentid" integer, "userid" integer NOT NULL, "title" varchar(255) NOT NULL DEFAULT (''), "text_raw" text NOT NULL, "status" varchar(16) NOT NULL DEFAULT ('public'), "langid" varchar(16), "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL DEFAULT (0), "replied_date" bigint NOT NULL DEFAULT (0))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_comments_modified_date" ON "comments" ("modified_date") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_parentid" ON "comments" ("parentid") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_context" ON "comments" ("context", "contextid") `);
    await queryRunner.query(`DROP INDEX "idx_comments_modified_date"`);
    await queryRunner.query(`DROP INDEX "idx_comments_parentid"`);
    await queryRunner.query(`DROP INDEX "idx_comments_context"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_comments" ("commentid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "context" varchar(16) NOT NULL, "contextid" integer NOT NULL, "parentid" integer, "userid" integer NOT NULL, "title" varchar(255) NOT NULL DEFAULT (''), "text_raw" text NOT NULL, "status" varchar(16) NOT NULL DEFAULT ('public'), "langid" varchar(16), "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL DEFAULT (0), "replied_date" bigint NOT NULL DEFAULT (0), CONSTRAINT "fk_comments_user" FOREIGN KEY ("userid") REFERENCES "users" ("userid") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_comments"("commentid", "context", "contextid", "parentid", "userid", "title", "text_raw", "status", "langid", "created_date", "modified_date", "replied_date") SELECT "commentid", "context", "contextid", "parentid", "userid", "title", "text_raw", "status", "langid", "created_date", "modified_date", "replied_date" FROM "comments"`,
    );
    await queryRunner.query(`DROP TABLE "comments"`);
    await queryRunner.query(`ALTER TABLE "temporary_comments" RENAME TO "comments"`);
    await queryRunner.query(`CREATE INDEX "idx_comments_modified_date" ON "comments" ("modified_date") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_parentid" ON "comments" ("parentid") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_context" ON "comments" ("context", "contextid") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_comments_context"`);
    await queryRunner.query(`DROP INDEX "idx_comments_parentid"`);
    await queryRunner.query(`DROP INDEX "idx_comments_modified_date"`);
    await queryRunner.query(`ALTER TABLE "comments" RENAME TO "temporary_comments"`);
    await queryRunner.query(
      `CREATE TABLE "comments" ("commentid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "context" varchar(16) NOT NULL, "contextid" integer NOT NULL, "parentid" integer, "userid" integer NOT NULL, "title" varchar(255) NOT NULL DEFAULT (''), "text_raw" text NOT NULL, "status" varchar(16) NOT NULL DEFAULT ('public'), "langid" varchar(16), "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL DEFAULT (0), "replied_date" bigint NOT NULL DEFAULT (0))`,
    );
    await queryRunner.query(
      `INSERT INTO "comments"("commentid", "context", "contextid", "parentid", "userid", "title", "text_raw", "status", "langid", "created_date", "modified_date", "replied_date") SELECT "commentid", "context", "contextid", "parentid", "userid", "title", "text_raw", "status", "langid", "created_date", "modified_date", "replied_date" FROM "temporary_comments"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_comments"`);
    await queryRunner.query(`CREATE INDEX "idx_comments_context" ON "comments" ("context", "contextid") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_parentid" ON "comments" ("parentid") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_modified_date" ON "comments" ("modified_date") `);
    await queryRunner.query(`DROP INDEX "idx_comments_context"`);
    await queryRunner.query(`DROP INDEX "idx_comments_parentid"`);
    await queryRunner.query(`DROP INDEX "idx_comments_modified_date"`);
    await queryRunner.query(`DROP TABLE "comments"`);
  }
}
