import { MigrationInterface, QueryRunner } from 'typeorm';

export class Releases1795470000000 implements MigrationInterface {
  name = 'Releases1795470000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "releases" ("releaseid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "doctype" varchar(8) NOT NULL, "docid" integer NOT NULL, "langid" varchar(16) NOT NULL, "revisionid" integer NOT NULL, "userid" integer NOT NULL, "status" varchar(16) NOT NULL, "title" varchar(255) NOT NULL, "notes" text NOT NULL, "type" varchar(8) NOT NULL, "version_major" integer NOT NULL, "version_minor" integer NOT NULL, "released_version" varchar(16), "pending_slot" integer, "init_date" bigint NOT NULL, "release_date" bigint, "approval_requestid" integer, "periodic_review_confirmed" boolean NOT NULL DEFAULT (0))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_releases_version" ON "releases" ("doctype", "docid", "langid", "released_version") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_releases_pending" ON "releases" ("doctype", "docid", "langid", "pending_slot") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_releases_doctype" ON "releases" ("doctype", "status", "releaseid") `);
    await queryRunner.query(
      `CREATE INDEX "idx_releases_document" ON "releases" ("doctype", "docid", "langid", "status") `,
    );
    await queryRunner.query(
      `CREATE TABLE "release_locks" ("doctype" varchar(8) NOT NULL, "docid" integer NOT NULL, "langid" varchar(16) NOT NULL, PRIMARY KEY ("doctype", "docid", "langid"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "release_locks"`);
    await queryRunner.query(`DROP INDEX "idx_releases_document"`);
    await queryRunner.query(`DROP INDEX "idx_releases_doctype"`);
    await queryRunner.query(`DROP INDEX "uq_releases_pending"`);
    await queryRunner.query(`DROP INDEX "uq_releases_version"`);
    await queryRunner.query(`DROP TABLE "releases"`);
  }
}
