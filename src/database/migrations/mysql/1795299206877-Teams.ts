import { MigrationInterface, QueryRunner } from 'typeorm';

export class Teams1795299206877 implements MigrationInterface {
  name = 'Teams1795299206877';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`teams\` (\`teamid\` int NOT NULL AUTO_INCREMENT, \`name\` varchar(255) NOT NULL, \`description\` text NOT NULL, \`created_by_userid\` int NULL, \`created_date\` bigint NOT NULL, UNIQUE INDEX \`uq_teams_name\` (\`name\`), PRIMARY KEY (\`teamid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`team_members\` (\`teamid\` int NOT NULL, \`userid\` int NOT NULL, \`joined_date\` bigint NOT NULL, INDEX \`idx_team_members_userid\` (\`userid\`), PRIMARY KEY (\`teamid\`, \`userid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `ALTER TABLE \`team_members\` ADD CONSTRAINT \`fk_team_members_team\` FOREIGN KEY (\`teamid\`) REFERENCES \`teams\`(\`teamid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`team_members\` ADD CONSTRAINT \`fk_team_members_user\` FOREIGN KEY (\`userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`team_members\` DROP FOREIGN KEY \`fk_team_members_user\``);
    await queryRunner.query(`ALTER TABLE \`team_members\` DROP FOREIGN KEY \`fk_team_members_team\``);
    await queryRunner.query(`DROP INDEX \`idx_team_members_userid\` ON \`team_members\``);
    await queryRunner.query(`DROP TABLE \`team_members\``);
    await queryRunner.query(`DROP INDEX \`uq_teams_name\` ON \`teams\``);
    await queryRunner.query(`DROP TABLE \`teams\``);
  }
}
