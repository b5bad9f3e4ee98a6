import { MigrationInterface, QueryRunner } from 'typeorm';

// Hand-simplified from the generated table rebuild: adding a nullable column needs no copy of the table.
export class GuideRevisionSummary1795307555306 implements MigrationInterface {
  name = 'GuideRevisionSummary1795307555306';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "guide_revisions" ADD COLUMN "summary" json`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "guide_revisions" DROP COLUMN "summary"`);
  }
}
