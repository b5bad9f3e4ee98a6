import { MigrationInterface, QueryRunner } from 'typeorm';

export class RateLimitCounters1795464809783 implements MigrationInterface {
  name = 'RateLimitCounters1795464809783';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "rate_limit_counters" ("counter_key" varchar(191) PRIMARY KEY NOT NULL, "hits" integer NOT NULL, "expires_at" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_rate_limit_counters_expires" ON "rate_limit_counters" ("expires_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_rate_limit_counters_expires"`);
    await queryRunner.query(`DROP TABLE "rate_limit_counters"`);
  }
}
