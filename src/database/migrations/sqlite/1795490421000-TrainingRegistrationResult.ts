import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `training_registrations.result_source` and `result_by`: how the result (status or score) was last set, by
 * the player (commit token) or through the API by a user.
 */
export class TrainingRegistrationResult1795490421000 implements MigrationInterface {
  name = 'TrainingRegistrationResult1795490421000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "training_registrations" ADD COLUMN "result_source" varchar(8)`);
    await queryRunner.query(`ALTER TABLE "training_registrations" ADD COLUMN "result_by" integer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "training_registrations" DROP COLUMN "result_by"`);
    await queryRunner.query(`ALTER TABLE "training_registrations" DROP COLUMN "result_source"`);
  }
}
