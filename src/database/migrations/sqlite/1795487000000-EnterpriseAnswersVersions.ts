import { MigrationInterface, QueryRunner } from 'typeorm';
import { newVersionToken } from '../../../platform/versions/content-versions';

/**
 * The rows of `content_versions` the enterprise answers kept in memory (a caller's approval requests, quizzes
 * list, review documents and work log) and anonymous search answers are kept under; every write to a table they are built from replaces its token
 * (src/database/answer-sources.ts).
 */
export class EnterpriseAnswersVersions1795487000000 implements MigrationInterface {
  name = 'EnterpriseAnswersVersions1795487000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['answers-approvals', 'answers-quizzes', 'answers-reviews', 'answers-search', 'answers-worklog'])
      await queryRunner.query(`INSERT INTO "content_versions" ("name", "token") VALUES (?, ?)`, [
        name,
        newVersionToken(),
      ]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM "content_versions" WHERE "name" IN ('answers-approvals', 'answers-quizzes', 'answers-reviews', 'answers-search', 'answers-worklog')`,
    );
  }
}
