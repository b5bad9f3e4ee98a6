import { MigrationInterface, QueryRunner } from 'typeorm';

export class GuideRevisionSummary1795307559007 implements MigrationInterface {
  name = 'GuideRevisionSummary1795307559007';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`guide_revisions\` ADD \`summary\` json NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`guide_revisions\` DROP COLUMN \`summary\``);
  }
}
