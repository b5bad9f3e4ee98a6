import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `periodic_review_documents (member_slot, prdid)`: the review tick pages through members by prdid, and
 * without this index the planner took `idx_pr_documents_due` for `member_slot = 1` and sorted every member
 * for each page of 500 (13 ms a page on SQLite with 50,000 documents; 0.25 ms with it). The tick's check of
 * the stored states (`prdid IN (…) AND member_slot = 1`) took the same wrong index.
 */
export class ReviewDocumentsMemberIndex1795481000000 implements MigrationInterface {
  name = 'ReviewDocumentsMemberIndex1795481000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "idx_pr_documents_member" ON "periodic_review_documents" ("member_slot", "prdid")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_pr_documents_member"`);
  }
}
