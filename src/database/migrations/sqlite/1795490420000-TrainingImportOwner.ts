import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `training_imports.owner_instance`: the instance that last worked on an import, failed at once when that
 * instance restarts after a crash.
 */
export class TrainingImportOwner1795490420000 implements MigrationInterface {
  name = 'TrainingImportOwner1795490420000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "training_imports" ADD COLUMN "owner_instance" varchar(300)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "training_imports" DROP COLUMN "owner_instance"`);
  }
}
