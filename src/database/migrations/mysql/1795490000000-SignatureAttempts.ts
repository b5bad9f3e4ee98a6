import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signing attempts are counted before their secret is checked (`signature_attempts`, pending or failed), so that
 * parallel attempts cannot pass the lockout; the failures on record carry over as failed attempts.
 */
export class SignatureAttempts1795490000000 implements MigrationInterface {
  name = 'SignatureAttempts1795490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`signature_attempts\` (\`attemptid\` int NOT NULL AUTO_INCREMENT, \`userid\` int NOT NULL, \`counted_at\` bigint NOT NULL, \`state\` varchar(8) NOT NULL, INDEX \`idx_signature_attempts_user\` (\`userid\`, \`counted_at\`), PRIMARY KEY (\`attemptid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `INSERT INTO \`signature_attempts\` (\`userid\`, \`counted_at\`, \`state\`) SELECT \`userid\`, \`failed_at\`, 'failed' FROM \`signature_failures\``,
    );
    await queryRunner.query(`DROP TABLE \`signature_failures\``);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`signature_failures\` (\`failureid\` int NOT NULL AUTO_INCREMENT, \`userid\` int NOT NULL, \`failed_at\` bigint NOT NULL, INDEX \`idx_signature_failures_user\` (\`userid\`, \`failed_at\`), PRIMARY KEY (\`failureid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `INSERT INTO \`signature_failures\` (\`userid\`, \`failed_at\`) SELECT \`userid\`, \`counted_at\` FROM \`signature_attempts\` WHERE \`state\` = 'failed'`,
    );
    await queryRunner.query(`DROP TABLE \`signature_attempts\``);
  }
}
