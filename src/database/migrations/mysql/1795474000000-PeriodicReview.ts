import { MigrationInterface, QueryRunner } from 'typeorm';

export class PeriodicReview1795474000000 implements MigrationInterface {
  name = 'PeriodicReview1795474000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`periodic_review_schedules\` (\`prsid\` int NOT NULL AUTO_INCREMENT, \`name\` varchar(255) NOT NULL, \`recurrence_type\` varchar(16) NOT NULL, \`annual_month\` int NULL, \`annual_day\` int NULL, \`interval_days\` int NULL, \`completion_window_days\` int NOT NULL, \`default_reviewer_userid\` int NULL, \`default_teamid\` int NULL, \`created_by_userid\` int NOT NULL, \`created_date\` bigint NOT NULL, \`deleted_date\` bigint NULL, INDEX \`idx_pr_schedules_live\` (\`deleted_date\`, \`prsid\`), PRIMARY KEY (\`prsid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`periodic_review_documents\` (\`prdid\` int NOT NULL AUTO_INCREMENT, \`prsid\` int NOT NULL, \`doctype\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`reviewer_userid\` int NULL, \`member_slot\` int NULL, \`added_date\` bigint NOT NULL, \`last_reviewed_date\` bigint NULL, \`next_due_date\` bigint NOT NULL, \`notified_state\` varchar(16) NOT NULL, \`removed_date\` bigint NULL, INDEX \`idx_pr_documents_due\` (\`member_slot\`, \`next_due_date\`), INDEX \`idx_pr_documents_schedule\` (\`prsid\`, \`member_slot\`, \`prdid\`), UNIQUE INDEX \`uq_pr_documents_member\` (\`doctype\`, \`docid\`, \`member_slot\`), PRIMARY KEY (\`prdid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`periodic_reviews\` (\`reviewid\` int NOT NULL AUTO_INCREMENT, \`prdid\` int NOT NULL, \`doctype\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`revisionid\` int NULL, \`userid\` int NOT NULL, \`outcome\` varchar(24) NOT NULL, \`notes\` text NOT NULL, \`source\` varchar(16) NOT NULL, \`releaseid\` int NULL, \`signatureid\` int NULL, \`created_date\` bigint NOT NULL, INDEX \`idx_pr_reviews_document\` (\`doctype\`, \`docid\`, \`reviewid\`), INDEX \`idx_pr_reviews_user\` (\`userid\`, \`reviewid\`), PRIMARY KEY (\`reviewid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`periodic_review_change_requests\` (\`requestid\` int NOT NULL AUTO_INCREMENT, \`reviewid\` int NOT NULL, \`doctype\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`assignee_userid\` int NOT NULL, \`requested_by_userid\` int NOT NULL, \`description\` text NOT NULL, \`status\` varchar(16) NOT NULL, \`resolved_by_releaseid\` int NULL, \`created_date\` bigint NOT NULL, \`resolved_date\` bigint NULL, INDEX \`idx_pr_requests_document\` (\`doctype\`, \`docid\`, \`status\`), INDEX \`idx_pr_requests_assignee\` (\`assignee_userid\`, \`status\`, \`requestid\`), PRIMARY KEY (\`requestid\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_pr_requests_assignee\` ON \`periodic_review_change_requests\``);
    await queryRunner.query(`DROP INDEX \`idx_pr_requests_document\` ON \`periodic_review_change_requests\``);
    await queryRunner.query(`DROP TABLE \`periodic_review_change_requests\``);
    await queryRunner.query(`DROP INDEX \`idx_pr_reviews_user\` ON \`periodic_reviews\``);
    await queryRunner.query(`DROP INDEX \`idx_pr_reviews_document\` ON \`periodic_reviews\``);
    await queryRunner.query(`DROP TABLE \`periodic_reviews\``);
    await queryRunner.query(`DROP INDEX \`uq_pr_documents_member\` ON \`periodic_review_documents\``);
    await queryRunner.query(`DROP INDEX \`idx_pr_documents_schedule\` ON \`periodic_review_documents\``);
    await queryRunner.query(`DROP INDEX \`idx_pr_documents_due\` ON \`periodic_review_documents\``);
    await queryRunner.query(`DROP TABLE \`periodic_review_documents\``);
    await queryRunner.query(`DROP INDEX \`idx_pr_schedules_live\` ON \`periodic_review_schedules\``);
    await queryRunner.query(`DROP TABLE \`periodic_review_schedules\``);
  }
}
