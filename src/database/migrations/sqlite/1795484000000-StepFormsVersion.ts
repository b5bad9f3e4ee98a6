import { MigrationInterface, QueryRunner } from 'typeorm';
import { newVersionToken } from '../../../platform/versions/content-versions';

/** The `step-forms` row of `content_versions`: work-log answers keep the forms an entry pinned under it. */
export class StepFormsVersion1795484000000 implements MigrationInterface {
  name = 'StepFormsVersion1795484000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`INSERT INTO "content_versions" ("name", "token") VALUES (?, ?)`, [
      'step-forms',
      newVersionToken(),
    ]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "content_versions" WHERE "name" = 'step-forms'`);
  }
}
