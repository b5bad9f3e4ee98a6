import { MigrationInterface, QueryRunner } from 'typeorm';

export class Releases1795470000000 implements MigrationInterface {
  name = 'Releases1795470000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`releases\` (\`releaseid\` int NOT NULL AUTO_INCREMENT, \`doctype\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, \`revisionid\` int NOT NULL, \`userid\` int NOT NULL, \`status\` varchar(16) NOT NULL, \`title\` varchar(255) NOT NULL, \`notes\` text NOT NULL, \`type\` varchar(8) NOT NULL, \`version_major\` int NOT NULL, \`version_minor\` int NOT NULL, \`released_version\` varchar(16) NULL, \`pending_slot\` int NULL, \`init_date\` bigint NOT NULL, \`release_date\` bigint NULL, \`approval_requestid\` int NULL, \`periodic_review_confirmed\` tinyint NOT NULL DEFAULT 0, UNIQUE INDEX \`uq_releases_version\` (\`doctype\`, \`docid\`, \`langid\`, \`released_version\`), UNIQUE INDEX \`uq_releases_pending\` (\`doctype\`, \`docid\`, \`langid\`, \`pending_slot\`), INDEX \`idx_releases_doctype\` (\`doctype\`, \`status\`, \`releaseid\`), INDEX \`idx_releases_document\` (\`doctype\`, \`docid\`, \`langid\`, \`status\`), PRIMARY KEY (\`releaseid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`release_locks\` (\`doctype\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, PRIMARY KEY (\`doctype\`, \`docid\`, \`langid\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`release_locks\``);
    await queryRunner.query(`DROP INDEX \`idx_releases_document\` ON \`releases\``);
    await queryRunner.query(`DROP INDEX \`idx_releases_doctype\` ON \`releases\``);
    await queryRunner.query(`DROP INDEX \`uq_releases_pending\` ON \`releases\``);
    await queryRunner.query(`DROP INDEX \`uq_releases_version\` ON \`releases\``);
    await queryRunner.query(`DROP TABLE \`releases\``);
  }
}
