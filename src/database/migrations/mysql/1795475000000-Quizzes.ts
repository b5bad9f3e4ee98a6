import { MigrationInterface, QueryRunner } from 'typeorm';

export class Quizzes1795475000000 implements MigrationInterface {
  name = 'Quizzes1795475000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`quizzes\` (\`quizid\` int NOT NULL AUTO_INCREMENT, \`title\` varchar(255) NOT NULL, \`category\` varchar(255) NOT NULL DEFAULT '', \`status\` varchar(16) NOT NULL, \`guideid\` int NULL, \`default_passing_score\` int NOT NULL, \`quiz_revisionid\` int NOT NULL, \`version\` int NOT NULL, \`released_date\` bigint NOT NULL, \`submitted_count\` int NOT NULL DEFAULT '0', \`created_by\` int NOT NULL, \`created_date\` bigint NOT NULL, \`modified_date\` bigint NOT NULL, INDEX \`idx_quizzes_category\` (\`category\`), INDEX \`idx_quizzes_guide\` (\`guideid\`), INDEX \`idx_quizzes_status\` (\`status\`, \`quizid\`), PRIMARY KEY (\`quizid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`quiz_revisions\` (\`quiz_revisionid\` int NOT NULL AUTO_INCREMENT, \`quizid\` int NOT NULL, \`version\` int NOT NULL, \`survey\` json NOT NULL, \`userid\` int NOT NULL, \`released_date\` bigint NOT NULL, UNIQUE INDEX \`uq_quiz_revisions_version\` (\`quizid\`, \`version\`), PRIMARY KEY (\`quiz_revisionid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`quiz_questions\` (\`questionid\` int NOT NULL AUTO_INCREMENT, \`quizid\` int NOT NULL, \`external_question_uid\` varchar(100) NOT NULL, \`title\` text NOT NULL, \`type\` varchar(32) NOT NULL, \`orderby\` int NOT NULL, \`removed\` tinyint NOT NULL DEFAULT 0, UNIQUE INDEX \`uq_quiz_questions_uid\` (\`quizid\`, \`external_question_uid\`), PRIMARY KEY (\`questionid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`quiz_associations\` (\`associationid\` int NOT NULL AUTO_INCREMENT, \`quizid\` int NOT NULL, \`doctype\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`userid\` int NOT NULL, \`created_date\` bigint NOT NULL, INDEX \`idx_quiz_associations_quiz\` (\`quizid\`), UNIQUE INDEX \`uq_quiz_associations\` (\`doctype\`, \`docid\`, \`quizid\`), PRIMARY KEY (\`associationid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`quiz_sessions\` (\`sessionid\` int NOT NULL AUTO_INCREMENT, \`quizid\` int NOT NULL, \`quiz_revisionid\` int NOT NULL, \`userid\` int NOT NULL, \`course_stageid\` int NULL, \`stage_key\` int NOT NULL, \`open_slot\` int NULL, \`doctype\` varchar(8) NULL, \`docid\` int NULL, \`status\` varchar(16) NOT NULL, \`answers\` json NOT NULL, \`score\` int NULL, \`passed\` tinyint NULL, \`passing_score\` int NOT NULL, \`guide_releaseid\` int NULL, \`started_date\` bigint NOT NULL, \`saved_date\` bigint NULL, \`submitted_date\` bigint NULL, \`invalidated_by\` int NULL, \`invalidated_date\` bigint NULL, \`invalidated_reason\` text NULL, INDEX \`idx_quiz_sessions_status\` (\`status\`, \`sessionid\`), INDEX \`idx_quiz_sessions_quiz\` (\`quizid\`, \`sessionid\`), UNIQUE INDEX \`uq_quiz_sessions_open\` (\`userid\`, \`quizid\`, \`stage_key\`, \`open_slot\`), PRIMARY KEY (\`sessionid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`quiz_submissions\` (\`submissionid\` int NOT NULL AUTO_INCREMENT, \`sessionid\` int NOT NULL, \`questionid\` int NOT NULL, \`external_question_uid\` varchar(100) NOT NULL, \`answer\` json NULL, \`is_correct\` tinyint NOT NULL, \`points\` int NOT NULL, INDEX \`idx_quiz_submissions_session\` (\`sessionid\`, \`submissionid\`), PRIMARY KEY (\`submissionid\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_quiz_submissions_session\` ON \`quiz_submissions\``);
    await queryRunner.query(`DROP TABLE \`quiz_submissions\``);
    await queryRunner.query(`DROP INDEX \`uq_quiz_sessions_open\` ON \`quiz_sessions\``);
    await queryRunner.query(`DROP INDEX \`idx_quiz_sessions_quiz\` ON \`quiz_sessions\``);
    await queryRunner.query(`DROP INDEX \`idx_quiz_sessions_status\` ON \`quiz_sessions\``);
    await queryRunner.query(`DROP TABLE \`quiz_sessions\``);
    await queryRunner.query(`DROP INDEX \`uq_quiz_associations\` ON \`quiz_associations\``);
    await queryRunner.query(`DROP INDEX \`idx_quiz_associations_quiz\` ON \`quiz_associations\``);
    await queryRunner.query(`DROP TABLE \`quiz_associations\``);
    await queryRunner.query(`DROP INDEX \`uq_quiz_questions_uid\` ON \`quiz_questions\``);
    await queryRunner.query(`DROP TABLE \`quiz_questions\``);
    await queryRunner.query(`DROP INDEX \`uq_quiz_revisions_version\` ON \`quiz_revisions\``);
    await queryRunner.query(`DROP TABLE \`quiz_revisions\``);
    await queryRunner.query(`DROP INDEX \`idx_quizzes_status\` ON \`quizzes\``);
    await queryRunner.query(`DROP INDEX \`idx_quizzes_guide\` ON \`quizzes\``);
    await queryRunner.query(`DROP INDEX \`idx_quizzes_category\` ON \`quizzes\``);
    await queryRunner.query(`DROP TABLE \`quizzes\``);
  }
}
