import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795298910071 implements MigrationInterface {
  name = 'Initial1795298910071';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`users\` (\`userid\` int NOT NULL AUTO_INCREMENT, \`email\` varchar(255) NOT NULL, \`username\` varchar(255) NOT NULL, \`unique_username\` varchar(64) NULL, \`password_hash\` varchar(255) NULL, \`privileges\` varchar(255) NOT NULL DEFAULT '', \`join_date\` bigint NOT NULL, \`reputation\` int NOT NULL DEFAULT '0', \`enabled\` tinyint NOT NULL DEFAULT 1, \`banned\` bigint NOT NULL DEFAULT '0', \`sso_userid\` varchar(255) NULL, \`employee_id\` varchar(255) NULL, \`summary\` varchar(255) NOT NULL DEFAULT '', \`about_raw\` text NOT NULL, \`langid\` varchar(16) NOT NULL DEFAULT 'en', \`imageid\` int NULL, \`created_by_userid\` int NULL, UNIQUE INDEX \`uq_users_email\` (\`email\`), INDEX \`idx_users_username\` (\`username\`), UNIQUE INDEX \`uq_users_unique_username\` (\`unique_username\`), INDEX \`idx_users_join_date\` (\`join_date\`), UNIQUE INDEX \`uq_users_sso_userid\` (\`sso_userid\`), UNIQUE INDEX \`uq_users_employee_id\` (\`employee_id\`), INDEX \`idx_users_created_by\` (\`created_by_userid\`), PRIMARY KEY (\`userid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`auth_tokens\` (\`tokenid\` int NOT NULL AUTO_INCREMENT, \`userid\` int NOT NULL, \`token_hash\` varchar(64) NOT NULL, \`app_id\` varchar(255) NULL, \`created_date\` bigint NOT NULL, \`last_used_date\` bigint NULL, \`revoked_date\` bigint NULL, INDEX \`idx_auth_tokens_userid\` (\`userid\`), UNIQUE INDEX \`uq_auth_tokens_hash\` (\`token_hash\`), PRIMARY KEY (\`tokenid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `ALTER TABLE \`auth_tokens\` ADD CONSTRAINT \`fk_auth_tokens_user\` FOREIGN KEY (\`userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`auth_tokens\` DROP FOREIGN KEY \`fk_auth_tokens_user\``);
    await queryRunner.query(`DROP INDEX \`uq_auth_tokens_hash\` ON \`auth_tokens\``);
    await queryRunner.query(`DROP INDEX \`idx_auth_tokens_userid\` ON \`auth_tokens\``);
    await queryRunner.query(`DROP TABLE \`auth_tokens\``);
    await queryRunner.query(`DROP INDEX \`idx_users_created_by\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`uq_users_employee_id\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`uq_users_sso_userid\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`idx_users_join_date\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`uq_users_unique_username\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`idx_users_username\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`uq_users_email\` ON \`users\``);
    await queryRunner.query(`DROP TABLE \`users\``);
  }
}
