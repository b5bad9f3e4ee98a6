import { MigrationInterface, QueryRunner } from 'typeorm';

export class Comments1795303108893 implements MigrationInterface {
  name = 'Comments1795303108893';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`comments\` (\`commentid\` int NOT NULL AUTO_INCREMENT, \`context\` varchar(16) NOT NULL, \`contextid\` int NOT NULL, \`parentid\` int NULL, \`userid\` int NOT NULL, \`title\` varchar(255) NOT NULL DEFAULT '', \`text_raw\` text NOT NULL, \`status\` varchar(16) NOT NULL DEFAULT 'public', \`langid\` varchar(16) NULL, \`created_date\` bigint NOT NULL, \`modified_date\` bigint NOT NULL DEFAULT '0', \`replied_date\` bigint NOT NULL DEFAULT '0', INDEX \`idx_comments_modified_date\` (\`modified_date\`), INDEX \`idx_comments_parentid\` (\`parentid\`), INDEX \`idx_comments_context\` (\`context\`, \`contextid\`), PRIMARY KEY (\`commentid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `ALTER TABLE \`comments\` ADD CONSTRAINT \`fk_comments_user\` FOREIGN KEY (\`userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`comments\` DROP FOREIGN KEY \`fk_comments_user\``);
    await queryRunner.query(`DROP INDEX \`idx_comments_context\` ON \`comments\``);
    await queryRunner.query(`DROP INDEX \`idx_comments_parentid\` ON \`comments\``);
    await queryRunner.query(`DROP INDEX \`idx_comments_modified_date\` ON \`comments\``);
    await queryRunner.query(`DROP TABLE \`comments\``);
  }
}
