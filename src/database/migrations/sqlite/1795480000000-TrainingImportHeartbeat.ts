import { MigrationInterface, QueryRunner } from 'typeorm';

/** `training_imports.heartbeat_date`: when the instance working an import last showed it is alive. */
export class TrainingImportHeartbeat1795480000000 implements MigrationInterface {
  name = 'TrainingImportHeartbeat1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "training_imports" ADD COLUMN "heartbeat_date" bigint`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "training_imports" DROP COLUMN "heartbeat_date"`);
  }
}
