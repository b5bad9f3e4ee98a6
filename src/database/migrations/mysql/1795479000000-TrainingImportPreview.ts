import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * training_imports.preview_json becomes a JSON column (LONGTEXT on MariaDB): the preview of a package of
 * 2,000 files is over 100 KB, past a TEXT column's 64 KiB (the import failed with "Data too long").
 */
export class TrainingImportPreview1795479000000 implements MigrationInterface {
  name = 'TrainingImportPreview1795479000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`training_imports\` MODIFY \`preview_json\` json NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`training_imports\` MODIFY \`preview_json\` text NULL`);
  }
}
