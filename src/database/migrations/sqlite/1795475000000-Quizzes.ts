import { MigrationInterface, QueryRunner } from 'typeorm';

export class Quizzes1795475000000 implements MigrationInterface {
  name = 'Quizzes1795475000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "quizzes" ("quizid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "title" varchar(255) NOT NULL, "category" varchar(255) NOT NULL DEFAULT (''), "status" varchar(16) NOT NULL, "guideid" integer, "default_passing_score" integer NOT NULL, "quiz_revisionid" integer NOT NULL, "version" integer NOT NULL, "released_date" bigint NOT NULL, "submitted_count" integer NOT NULL DEFAULT (0), "created_by" integer NOT NULL, "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_quizzes_category" ON "quizzes" ("category") `);
    await queryRunner.query(`CREATE INDEX "idx_quizzes_guide" ON "quizzes" ("guideid") `);
    await queryRunner.query(`CREATE INDEX "idx_quizzes_status" ON "quizzes" ("status", "quizid") `);
    await queryRunner.query(
      `CREATE TABLE "quiz_revisions" ("quiz_revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "quizid" integer NOT NULL, "version" integer NOT NULL, "survey" json NOT NULL, "userid" integer NOT NULL, "released_date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_quiz_revisions_version" ON "quiz_revisions" ("quizid", "version") `,
    );
    await queryRunner.query(
      `CREATE TABLE "quiz_questions" ("questionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "quizid" integer NOT NULL, "external_question_uid" varchar(100) NOT NULL, "title" text NOT NULL, "type" varchar(32) NOT NULL, "orderby" integer NOT NULL, "removed" boolean NOT NULL DEFAULT (0))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_quiz_questions_uid" ON "quiz_questions" ("quizid", "external_question_uid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "quiz_associations" ("associationid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "quizid" integer NOT NULL, "doctype" varchar(8) NOT NULL, "docid" integer NOT NULL, "userid" integer NOT NULL, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_quiz_associations_quiz" ON "quiz_associations" ("quizid") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_quiz_associations" ON "quiz_associations" ("doctype", "docid", "quizid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "quiz_sessions" ("sessionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "quizid" integer NOT NULL, "quiz_revisionid" integer NOT NULL, "userid" integer NOT NULL, "course_stageid" integer, "stage_key" integer NOT NULL, "open_slot" integer, "doctype" varchar(8), "docid" integer, "status" varchar(16) NOT NULL, "answers" json NOT NULL, "score" integer, "passed" boolean, "passing_score" integer NOT NULL, "guide_releaseid" integer, "started_date" bigint NOT NULL, "saved_date" bigint, "submitted_date" bigint, "invalidated_by" integer, "invalidated_date" bigint, "invalidated_reason" text)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_quiz_sessions_status" ON "quiz_sessions" ("status", "sessionid") `);
    await queryRunner.query(`CREATE INDEX "idx_quiz_sessions_quiz" ON "quiz_sessions" ("quizid", "sessionid") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_quiz_sessions_open" ON "quiz_sessions" ("userid", "quizid", "stage_key", "open_slot") `,
    );
    await queryRunner.query(
      `CREATE TABLE "quiz_submissions" ("submissionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "sessionid" integer NOT NULL, "questionid" integer NOT NULL, "external_question_uid" varchar(100) NOT NULL, "answer" json, "is_correct" boolean NOT NULL, "points" integer NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_quiz_submissions_session" ON "quiz_submissions" ("sessionid", "submissionid") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_quiz_submissions_session"`);
    await queryRunner.query(`DROP TABLE "quiz_submissions"`);
    await queryRunner.query(`DROP INDEX "uq_quiz_sessions_open"`);
    await queryRunner.query(`DROP INDEX "idx_quiz_sessions_quiz"`);
    await queryRunner.query(`DROP INDEX "idx_quiz_sessions_status"`);
    await queryRunner.query(`DROP TABLE "quiz_sessions"`);
    await queryRunner.query(`DROP INDEX "uq_quiz_associations"`);
    await queryRunner.query(`DROP INDEX "idx_quiz_associations_quiz"`);
    await queryRunner.query(`DROP TABLE "quiz_associations"`);
    await queryRunner.query(`DROP INDEX "uq_quiz_questions_uid"`);
    await queryRunner.query(`DROP TABLE "quiz_questions"`);
    await queryRunner.query(`DROP INDEX "uq_quiz_revisions_version"`);
    await queryRunner.query(`DROP TABLE "quiz_revisions"`);
    await queryRunner.query(`DROP INDEX "idx_quizzes_status"`);
    await queryRunner.query(`DROP INDEX "idx_quizzes_guide"`);
    await queryRunner.query(`DROP INDEX "idx_quizzes_category"`);
    await queryRunner.query(`DROP TABLE "quizzes"`);
  }
}
