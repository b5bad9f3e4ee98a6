import { MigrationInterface, QueryRunner } from 'typeorm';
import { newVersionToken } from '../../../platform/versions/content-versions';

/**
 * `content_versions`: a token per piece of derived content kept in memory by readers (the category tree),
 * replaced by every write that changes it. The category tree's row is created here, so that an existing
 * database's tree can be kept from the first read on.
 */
export class ContentVersions1795483000000 implements MigrationInterface {
  name = 'ContentVersions1795483000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "content_versions" ("name" varchar(100) PRIMARY KEY NOT NULL, "token" varchar(32) NOT NULL)`,
    );
    await queryRunner.query(`INSERT INTO "content_versions" ("name", "token") VALUES (?, ?)`, [
      'category-tree',
      newVersionToken(),
    ]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "content_versions"`);
  }
}
