import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where the pieces of a stored guide document lie in its text (guide-fragments.ts), so that a read splices the
 * stored bytes instead of parsing them. Filled when a document is stored, and on the first read of older ones.
 */
export class GuideRevisionLayout1795496000000 implements MigrationInterface {
  name = 'GuideRevisionLayout1795496000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE guide_revisions ADD COLUMN layout text NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE guide_revisions DROP COLUMN layout');
  }
}
