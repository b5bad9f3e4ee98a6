import { MigrationInterface, QueryRunner } from 'typeorm';

export class RateLimitCounters1795464816099 implements MigrationInterface {
  name = 'RateLimitCounters1795464816099';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`rate_limit_counters\` (\`counter_key\` varchar(191) NOT NULL, \`hits\` int NOT NULL, \`expires_at\` bigint NOT NULL, INDEX \`idx_rate_limit_counters_expires\` (\`expires_at\`), PRIMARY KEY (\`counter_key\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_rate_limit_counters_expires\` ON \`rate_limit_counters\``);
    await queryRunner.query(`DROP TABLE \`rate_limit_counters\``);
  }
}
