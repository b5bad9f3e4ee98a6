import { MigrationInterface, QueryRunner } from 'typeorm';
import { newVersionToken } from '../../../platform/versions/content-versions';

/**
 * The `answers` row of `content_versions`: whole answers kept in memory (guide detail for anonymous callers) are
 * kept under it, and every write to a table they are built from replaces it (src/database/answer-sources.ts).
 */
export class AnswersVersion1795486000000 implements MigrationInterface {
  name = 'AnswersVersion1795486000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('INSERT INTO `content_versions` (`name`, `token`) VALUES (?, ?)', [
      'answers',
      newVersionToken(),
    ]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM `content_versions` WHERE `name` = 'answers'");
  }
}
