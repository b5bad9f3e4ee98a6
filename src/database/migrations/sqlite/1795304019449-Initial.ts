import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795304019449 implements MigrationInterface {
  name = 'Initial1795304019449';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "guides" ("guideid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "authorid" integer NOT NULL, "langid" varchar(16) NOT NULL, "category" varchar(255) NOT NULL, "title" varchar(255) NOT NULL, "type" varchar(16) NOT NULL, "public" boolean NOT NULL DEFAULT (0), "deleted" boolean NOT NULL DEFAULT (0), "flags" varchar(255) NOT NULL DEFAULT (''), "revisionid" integer NOT NULL, "head_revisionid" integer NOT NULL, "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL, "published_date" bigint NOT NULL DEFAULT (0))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_guides_modified" ON "guides" ("modified_date") `);
    await queryRunner.query(`CREATE INDEX "idx_guides_author" ON "guides" ("authorid") `);
    await queryRunner.query(`CREATE INDEX "idx_guides_public_deleted" ON "guides" ("public", "deleted", "guideid") `);
    await queryRunner.query(
      `CREATE TABLE "guide_revisions" ("revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guideid" integer NOT NULL, "langid" varchar(16) NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, "patrolled" boolean NOT NULL DEFAULT (0), "data" json NOT NULL, "document" json, "render_key" varchar(64) NOT NULL DEFAULT (''))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_guide_revisions_user" ON "guide_revisions" ("userid", "guideid") `);
    await queryRunner.query(
      `CREATE INDEX "idx_guide_revisions_guide_lang" ON "guide_revisions" ("guideid", "langid", "revisionid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "guide_translations" ("guideid" integer NOT NULL, "langid" varchar(16) NOT NULL, "revisionid" integer, "head_revisionid" integer NOT NULL, PRIMARY KEY ("guideid", "langid"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "guide_steps" ("stepid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guideid" integer NOT NULL, "revisionid" integer NOT NULL, "deleted" boolean NOT NULL DEFAULT (0))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_guide_steps_guide" ON "guide_steps" ("guideid") `);
    await queryRunner.query(
      `CREATE TABLE "guide_step_revisions" ("revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "stepid" integer NOT NULL, "guideid" integer NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, "data" json NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_guide_step_revisions_step" ON "guide_step_revisions" ("stepid", "revisionid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "guide_user_grants" ("guideid" integer NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, PRIMARY KEY ("guideid", "userid"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_guide_user_grants_user" ON "guide_user_grants" ("userid") `);
    await queryRunner.query(
      `CREATE TABLE "guide_team_grants" ("guideid" integer NOT NULL, "teamid" integer NOT NULL, "date" bigint NOT NULL, PRIMARY KEY ("guideid", "teamid"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_guide_team_grants_team" ON "guide_team_grants" ("teamid") `);
    await queryRunner.query(
      `CREATE TABLE "guide_completions" ("guideid" integer NOT NULL, "userid" integer NOT NULL, "langid" varchar(16) NOT NULL, "date" bigint NOT NULL, PRIMARY KEY ("guideid", "userid"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_guide_completions_user" ON "guide_completions" ("userid", "date") `);
    await queryRunner.query(
      `CREATE TABLE "guide_favorites" ("guideid" integer NOT NULL, "userid" integer NOT NULL, "langid" varchar(16) NOT NULL, "date" bigint NOT NULL, PRIMARY KEY ("guideid", "userid"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_guide_favorites_user" ON "guide_favorites" ("userid", "date") `);
    await queryRunner.query(
      `CREATE TABLE "users" ("userid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "email" varchar(255) NOT NULL, "username" varchar(255) NOT NULL, "unique_username" varchar(64), "password_hash" varchar(255), "privileges" varchar(255) NOT NULL DEFAULT (''), "join_date" bigint NOT NULL, "reputation" integer NOT NULL DEFAULT (0), "enabled" boolean NOT NULL DEFAULT (1), "banned" bigint NOT NULL DEFAULT (0), "sso_userid" varchar(255), "employee_id" varchar(255), "summary" varchar(255) NOT NULL DEFAULT (''), "about_raw" text NOT NULL, "langid" varchar(16) NOT NULL DEFAULT ('en'), "imageid" integer, "created_by_userid" integer)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_email" ON "users" ("email") `);
    await queryRunner.query(`CREATE INDEX "idx_users_username" ON "users" ("username") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_unique_username" ON "users" ("unique_username") `);
    await queryRunner.query(`CREATE INDEX "idx_users_join_date" ON "users" ("join_date") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_sso_userid" ON "users" ("sso_userid") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_employee_id" ON "users" ("employee_id") `);
    await queryRunner.query(`CREATE INDEX "idx_users_created_by" ON "users" ("created_by_userid") `);
    await queryRunner.query(
      `CREATE TABLE "comments" ("commentid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "context" varchar(16) NOT NULL, "contextid" integer NOT NULL, "parentid" integer, "userid" integer NOT NULL, "title" varchar(255) NOT NULL DEFAULT (''), "text_raw" text NOT NULL, "status" varchar(16) NOT NULL DEFAULT ('public'), "langid" varchar(16), "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL DEFAULT (0), "replied_date" bigint NOT NULL DEFAULT (0))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_comments_modified_date" ON "comments" ("modified_date") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_parentid" ON "comments" ("parentid") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_context" ON "comments" ("context", "contextid") `);
    await queryRunner.query(
      `CREATE TABLE "auth_tokens" ("tokenid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "userid" integer NOT NULL, "token_hash" varchar(64) NOT NULL, "app_id" varchar(255), "created_date" bigint NOT NULL, "last_used_date" bigint, "revoked_date" bigint)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_auth_tokens_userid" ON "auth_tokens" ("userid") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_auth_tokens_hash" ON "auth_tokens" ("token_hash") `);
    await queryRunner.query(
      `CREATE TABLE "reputation_awards" ("awardid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "userid" integer NOT NULL, "kind" varchar(32) NOT NULL, "subject" varchar(64) NOT NULL, "points" integer NOT NULL, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_reputation_awards" ON "reputation_awards" ("userid", "kind", "subject") `,
    );
    await queryRunner.query(
      `CREATE TABLE "user_badges" ("userid" integer NOT NULL, "badgeid" integer NOT NULL, "times_earned" integer NOT NULL DEFAULT (1), "earned_date" bigint NOT NULL, PRIMARY KEY ("userid", "badgeid"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_user_badges_badgeid" ON "user_badges" ("badgeid") `);
    await queryRunner.query(
      `CREATE TABLE "teams" ("teamid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(255) NOT NULL, "description" text NOT NULL, "owner_userid" integer, "created_by_userid" integer, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_teams_name" ON "teams" ("name") `);
    await queryRunner.query(
      `CREATE TABLE "team_members" ("teamid" integer NOT NULL, "userid" integer NOT NULL, "joined_date" bigint NOT NULL, PRIMARY KEY ("teamid", "userid"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_team_members_userid" ON "team_members" ("userid") `);
    await queryRunner.query(
      `CREATE TABLE "documents" ("documentid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guid" varchar(16) NOT NULL, "owner_userid" integer, "in_manager" boolean NOT NULL DEFAULT (1), "filename" varchar(255) NOT NULL, "title" varchar(255) NOT NULL, "mime" varchar(128) NOT NULL, "ext" varchar(8) NOT NULL, "doc_group" varchar(16) NOT NULL, "file_size" integer NOT NULL, "storage_key" varchar(255) NOT NULL, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_documents_guid" ON "documents" ("guid") `);
    await queryRunner.query(
      `CREATE INDEX "idx_documents_owner_manager" ON "documents" ("owner_userid", "in_manager", "documentid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "images" ("imageid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guid" varchar(16) NOT NULL, "owner_userid" integer, "in_manager" boolean NOT NULL DEFAULT (1), "srcid" integer, "filename" varchar(255) NOT NULL DEFAULT (''), "mime" varchar(32) NOT NULL, "original_ext" varchar(8) NOT NULL, "variant_ext" varchar(8) NOT NULL, "width" integer NOT NULL, "height" integer NOT NULL, "ratio" varchar(16) NOT NULL, "file_size" integer NOT NULL, "exif" text NOT NULL, "markup" text, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_images_guid" ON "images" ("guid") `);
    await queryRunner.query(`CREATE INDEX "idx_images_in_manager" ON "images" ("in_manager") `);
    await queryRunner.query(
      `CREATE INDEX "idx_images_owner_manager" ON "images" ("owner_userid", "in_manager", "imageid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "media_usage" ("owner_kind" varchar(16) NOT NULL, "owner_id" integer NOT NULL, "imageid" integer NOT NULL, PRIMARY KEY ("owner_kind", "owner_id", "imageid"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_media_usage_imageid" ON "media_usage" ("imageid") `);
    await queryRunner.query(
      `CREATE TABLE "videos" ("videoid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guid" varchar(16) NOT NULL, "owner_userid" integer, "in_manager" boolean NOT NULL DEFAULT (1), "filename" varchar(255) NOT NULL DEFAULT (''), "mime" varchar(32) NOT NULL, "ext" varchar(8) NOT NULL, "file_size" integer NOT NULL, "width" integer NOT NULL DEFAULT (0), "height" integer NOT NULL DEFAULT (0), "duration_ms" integer NOT NULL DEFAULT (0), "thumbnail_imageid" integer, "state" varchar(16) NOT NULL, "meta" text NOT NULL, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_videos_guid" ON "videos" ("guid") `);
    await queryRunner.query(
      `CREATE INDEX "idx_videos_owner_manager" ON "videos" ("owner_userid", "in_manager", "videoid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "tags" ("tagid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(32) NOT NULL, "name_key" varchar(64) NOT NULL, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_tags_name_key" ON "tags" ("name_key") `);
    await queryRunner.query(
      `CREATE TABLE "document_tags" ("doc_kind" varchar(8) NOT NULL, "docid" integer NOT NULL, "tagid" integer NOT NULL, "created_date" bigint NOT NULL, PRIMARY KEY ("doc_kind", "docid", "tagid"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_document_tags_tagid" ON "document_tags" ("tagid") `);
    await queryRunner.query(
      `CREATE TABLE "user_view_history" ("historyid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "userid" integer NOT NULL, "doc_type" varchar(8) NOT NULL, "docid" integer NOT NULL, "date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_view_history_doc_date" ON "user_view_history" ("doc_type", "docid", "date") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_view_history_user_date" ON "user_view_history" ("userid", "date") `);
    await queryRunner.query(
      `CREATE TABLE "wiki_category_guides" ("guideid" integer PRIMARY KEY NOT NULL, "category" varchar(255) NOT NULL, "category_hash" varchar(64) NOT NULL, "title" varchar(255) NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_wiki_category_guides_category" ON "wiki_category_guides" ("category_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "wikis" ("wikiid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "namespace" varchar(16) NOT NULL, "title" varchar(255) NOT NULL, "title_hash" varchar(64) NOT NULL, "langid" varchar(16) NOT NULL, "parent_wikiid" integer, "authorid" integer NOT NULL, "deleted" boolean NOT NULL DEFAULT (0), "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_wikis_parent" ON "wikis" ("parent_wikiid") `);
    await queryRunner.query(`CREATE INDEX "idx_wikis_namespace_modified" ON "wikis" ("namespace", "modified_date") `);
    await queryRunner.query(`CREATE INDEX "idx_wikis_namespace_title" ON "wikis" ("namespace", "title") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_wikis_namespace_title" ON "wikis" ("namespace", "title_hash") `);
    await queryRunner.query(
      `CREATE TABLE "wiki_languages" ("wikiid" integer NOT NULL, "langid" varchar(16) NOT NULL, "revisionid" integer, "head_revisionid" integer NOT NULL, "source_revisionid" integer, PRIMARY KEY ("wikiid", "langid"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "wiki_revisions" ("revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "wikiid" integer NOT NULL, "langid" varchar(16) NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, "patrolled" boolean NOT NULL DEFAULT (0), "deleted" boolean NOT NULL DEFAULT (0), "display_title" varchar(255) NOT NULL, "summary" varchar(1000) NOT NULL DEFAULT (''), "contents" text NOT NULL, "imageid" integer, "flags" varchar(255) NOT NULL DEFAULT (''), "data" text NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_wiki_revisions_wiki_lang" ON "wiki_revisions" ("wikiid", "langid", "revisionid") `,
    );
    await queryRunner.query(`DROP INDEX "idx_guide_revisions_user"`);
    await queryRunner.query(`DROP INDEX "idx_guide_revisions_guide_lang"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_guide_revisions" ("revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guideid" integer NOT NULL, "langid" varchar(16) NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, "patrolled" boolean NOT NULL DEFAULT (0), "data" json NOT NULL, "document" json, "render_key" varchar(64) NOT NULL DEFAULT (''), CONSTRAINT "fk_guide_revisions_guide" FOREIGN KEY ("guideid") REFERENCES "guides" ("guideid") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_guide_revisions"("revisionid", "guideid", "langid", "userid", "date", "patrolled", "data", "document", "render_key") SELECT "revisionid", "guideid", "langid", "userid", "date", "patrolled", "data", "document", "render_key" FROM "guide_revisions"`,
    );
    await queryRunner.query(`DROP TABLE "guide_revisions"`);
    await queryRunner.query(`ALTER TABLE "temporary_guide_revisions" RENAME TO "guide_revisions"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_revisions_user" ON "guide_revisions" ("userid", "guideid") `);
    await queryRunner.query(
      `CREATE INDEX "idx_guide_revisions_guide_lang" ON "guide_revisions" ("guideid", "langid", "revisionid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "temporary_guide_translations" ("guideid" integer NOT NULL, "langid" varchar(16) NOT NULL, "revisionid" integer, "head_revisionid" integer NOT NULL, CONSTRAINT "fk_guide_translations_guide" FOREIGN KEY ("guideid") REFERENCES "guides" ("guideid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("guideid", "langid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_guide_translations"("guideid", "langid", "revisionid", "head_revisionid") SELECT "guideid", "langid", "revisionid", "head_revisionid" FROM "guide_translations"`,
    );
    await queryRunner.query(`DROP TABLE "guide_translations"`);
    await queryRunner.query(`ALTER TABLE "temporary_guide_translations" RENAME TO "guide_translations"`);
    await queryRunner.query(`DROP INDEX "idx_guide_steps_guide"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_guide_steps" ("stepid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guideid" integer NOT NULL, "revisionid" integer NOT NULL, "deleted" boolean NOT NULL DEFAULT (0), CONSTRAINT "fk_guide_steps_guide" FOREIGN KEY ("guideid") REFERENCES "guides" ("guideid") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_guide_steps"("stepid", "guideid", "revisionid", "deleted") SELECT "stepid", "guideid", "revisionid", "deleted" FROM "guide_steps"`,
    );
    await queryRunner.query(`DROP TABLE "guide_steps"`);
    await queryRunner.query(`ALTER TABLE "temporary_guide_steps" RENAME TO "guide_steps"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_steps_guide" ON "guide_steps" ("guideid") `);
    await queryRunner.query(`DROP INDEX "idx_guide_step_revisions_step"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_guide_step_revisions" ("revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "stepid" integer NOT NULL, "guideid" integer NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, "data" json NOT NULL, CONSTRAINT "fk_guide_step_revisions_step" FOREIGN KEY ("stepid") REFERENCES "guide_steps" ("stepid") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_guide_step_revisions"("revisionid", "stepid", "guideid", "userid", "date", "data") SELECT "revisionid", "stepid", "guideid", "userid", "date", "data" FROM "guide_step_revisions"`,
    );
    await queryRunner.query(`DROP TABLE "guide_step_revisions"`);
    await queryRunner.query(`ALTER TABLE "temporary_guide_step_revisions" RENAME TO "guide_step_revisions"`);
    await queryRunner.query(
      `CREATE INDEX "idx_guide_step_revisions_step" ON "guide_step_revisions" ("stepid", "revisionid") `,
    );
    await queryRunner.query(`DROP INDEX "idx_guide_user_grants_user"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_guide_user_grants" ("guideid" integer NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, CONSTRAINT "fk_guide_user_grants_guide" FOREIGN KEY ("guideid") REFERENCES "guides" ("guideid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("guideid", "userid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_guide_user_grants"("guideid", "userid", "date") SELECT "guideid", "userid", "date" FROM "guide_user_grants"`,
    );
    await queryRunner.query(`DROP TABLE "guide_user_grants"`);
    await queryRunner.query(`ALTER TABLE "temporary_guide_user_grants" RENAME TO "guide_user_grants"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_user_grants_user" ON "guide_user_grants" ("userid") `);
    await queryRunner.query(`DROP INDEX "idx_guide_team_grants_team"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_guide_team_grants" ("guideid" integer NOT NULL, "teamid" integer NOT NULL, "date" bigint NOT NULL, CONSTRAINT "fk_guide_team_grants_guide" FOREIGN KEY ("guideid") REFERENCES "guides" ("guideid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("guideid", "teamid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_guide_team_grants"("guideid", "teamid", "date") SELECT "guideid", "teamid", "date" FROM "guide_team_grants"`,
    );
    await queryRunner.query(`DROP TABLE "guide_team_grants"`);
    await queryRunner.query(`ALTER TABLE "temporary_guide_team_grants" RENAME TO "guide_team_grants"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_team_grants_team" ON "guide_team_grants" ("teamid") `);
    await queryRunner.query(`DROP INDEX "idx_guide_completions_user"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_guide_completions" ("guideid" integer NOT NULL, "userid" integer NOT NULL, "langid" varchar(16) NOT NULL, "date" bigint NOT NULL, CONSTRAINT "fk_guide_completions_guide" FOREIGN KEY ("guideid") REFERENCES "guides" ("guideid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("guideid", "userid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_guide_completions"("guideid", "userid", "langid", "date") SELECT "guideid", "userid", "langid", "date" FROM "guide_completions"`,
    );
    await queryRunner.query(`DROP TABLE "guide_completions"`);
    await queryRunner.query(`ALTER TABLE "temporary_guide_completions" RENAME TO "guide_completions"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_completions_user" ON "guide_completions" ("userid", "date") `);
    await queryRunner.query(`DROP INDEX "idx_guide_favorites_user"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_guide_favorites" ("guideid" integer NOT NULL, "userid" integer NOT NULL, "langid" varchar(16) NOT NULL, "date" bigint NOT NULL, CONSTRAINT "fk_guide_favorites_guide" FOREIGN KEY ("guideid") REFERENCES "guides" ("guideid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("guideid", "userid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_guide_favorites"("guideid", "userid", "langid", "date") SELECT "guideid", "userid", "langid", "date" FROM "guide_favorites"`,
    );
    await queryRunner.query(`DROP TABLE "guide_favorites"`);
    await queryRunner.query(`ALTER TABLE "temporary_guide_favorites" RENAME TO "guide_favorites"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_favorites_user" ON "guide_favorites" ("userid", "date") `);
    await queryRunner.query(`DROP INDEX "idx_comments_modified_date"`);
    await queryRunner.query(`DROP INDEX "idx_comments_parentid"`);
    await queryRunner.query(`DROP INDEX "idx_comments_context"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_comments" ("commentid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "context" varchar(16) NOT NULL, "contextid" integer NOT NULL, "parentid" integer, "userid" integer NOT NULL, "title" varchar(255) NOT NULL DEFAULT (''), "text_raw" text NOT NULL, "status" varchar(16) NOT NULL DEFAULT ('public'), "langid" varchar(16), "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL DEFAULT (0), "replied_date" bigint NOT NULL DEFAULT (0), CONSTRAINT "fk_comments_user" FOREIGN KEY ("userid") REFERENCES "users" ("userid") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_comments"("commentid", "context", "contextid", "parentid", "userid", "title", "text_raw", "status", "langid", "created_date", "modified_date", "replied_date") SELECT "commentid", "context", "contextid", "parentid", "userid", "title", "text_raw", "status", "langid", "created_date", "modified_date", "replied_date" FROM "comments"`,
    );
    await queryRunner.query(`DROP TABLE "comments"`);
    await queryRunner.query(`ALTER TABLE "temporary_comments" RENAME TO "comments"`);
    await queryRunner.query(`CREATE INDEX "idx_comments_modified_date" ON "comments" ("modified_date") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_parentid" ON "comments" ("parentid") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_context" ON "comments" ("context", "contextid") `);
    await queryRunner.query(`DROP INDEX "idx_auth_tokens_userid"`);
    await queryRunner.query(`DROP INDEX "uq_auth_tokens_hash"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_auth_tokens" ("tokenid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "userid" integer NOT NULL, "token_hash" varchar(64) NOT NULL, "app_id" varchar(255), "created_date" bigint NOT NULL, "last_used_date" bigint, "revoked_date" bigint, CONSTRAINT "fk_auth_tokens_user" FOREIGN KEY ("userid") REFERENCES "users" ("userid") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_auth_tokens"("tokenid", "userid", "token_hash", "app_id", "created_date", "last_used_date", "revoked_date") SELECT "tokenid", "userid", "token_hash", "app_id", "created_date", "last_used_date", "revoked_date" FROM "auth_tokens"`,
    );
    await queryRunner.query(`DROP TABLE "auth_tokens"`);
    await queryRunner.query(`ALTER TABLE "temporary_auth_tokens" RENAME TO "auth_tokens"`);
    await queryRunner.query(`CREATE INDEX "idx_auth_tokens_userid" ON "auth_tokens" ("userid") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_auth_tokens_hash" ON "auth_tokens" ("token_hash") `);
    await queryRunner.query(`DROP INDEX "idx_user_badges_badgeid"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_user_badges" ("userid" integer NOT NULL, "badgeid" integer NOT NULL, "times_earned" integer NOT NULL DEFAULT (1), "earned_date" bigint NOT NULL, CONSTRAINT "fk_user_badges_user" FOREIGN KEY ("userid") REFERENCES "users" ("userid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("userid", "badgeid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_user_badges"("userid", "badgeid", "times_earned", "earned_date") SELECT "userid", "badgeid", "times_earned", "earned_date" FROM "user_badges"`,
    );
    await queryRunner.query(`DROP TABLE "user_badges"`);
    await queryRunner.query(`ALTER TABLE "temporary_user_badges" RENAME TO "user_badges"`);
    await queryRunner.query(`CREATE INDEX "idx_user_badges_badgeid" ON "user_badges" ("badgeid") `);
    await queryRunner.query(`DROP INDEX "idx_team_members_userid"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_team_members" ("teamid" integer NOT NULL, "userid" integer NOT NULL, "joined_date" bigint NOT NULL, CONSTRAINT "fk_team_members_team" FOREIGN KEY ("teamid") REFERENCES "teams" ("teamid") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "fk_team_members_user" FOREIGN KEY ("userid") REFERENCES "users" ("userid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("teamid", "userid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_team_members"("teamid", "userid", "joined_date") SELECT "teamid", "userid", "joined_date" FROM "team_members"`,
    );
    await queryRunner.query(`DROP TABLE "team_members"`);
    await queryRunner.query(`ALTER TABLE "temporary_team_members" RENAME TO "team_members"`);
    await queryRunner.query(`CREATE INDEX "idx_team_members_userid" ON "team_members" ("userid") `);
    await queryRunner.query(`DROP INDEX "uq_documents_guid"`);
    await queryRunner.query(`DROP INDEX "idx_documents_owner_manager"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_documents" ("documentid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guid" varchar(16) NOT NULL, "owner_userid" integer, "in_manager" boolean NOT NULL DEFAULT (1), "filename" varchar(255) NOT NULL, "title" varchar(255) NOT NULL, "mime" varchar(128) NOT NULL, "ext" varchar(8) NOT NULL, "doc_group" varchar(16) NOT NULL, "file_size" integer NOT NULL, "storage_key" varchar(255) NOT NULL, "created_date" bigint NOT NULL, CONSTRAINT "fk_documents_owner" FOREIGN KEY ("owner_userid") REFERENCES "users" ("userid") ON DELETE SET NULL ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_documents"("documentid", "guid", "owner_userid", "in_manager", "filename", "title", "mime", "ext", "doc_group", "file_size", "storage_key", "created_date") SELECT "documentid", "guid", "owner_userid", "in_manager", "filename", "title", "mime", "ext", "doc_group", "file_size", "storage_key", "created_date" FROM "documents"`,
    );
    await queryRunner.query(`DROP TABLE "documents"`);
    await queryRunner.query(`ALTER TABLE "temporary_documents" RENAME TO "documents"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_documents_guid" ON "documents" ("guid") `);
    await queryRunner.query(
      `CREATE INDEX "idx_documents_owner_manager" ON "documents" ("owner_userid", "in_manager", "documentid") `,
    );
    await queryRunner.query(`DROP INDEX "uq_images_guid"`);
    await queryRunner.query(`DROP INDEX "idx_images_in_manager"`);
    await queryRunner.query(`DROP INDEX "idx_images_owner_manager"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_images" ("imageid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guid" varchar(16) NOT NULL, "owner_userid" integer, "in_manager" boolean NOT NULL DEFAULT (1), "srcid" integer, "filename" varchar(255) NOT NULL DEFAULT (''), "mime" varchar(32) NOT NULL, "original_ext" varchar(8) NOT NULL, "variant_ext" varchar(8) NOT NULL, "width" integer NOT NULL, "height" integer NOT NULL, "ratio" varchar(16) NOT NULL, "file_size" integer NOT NULL, "exif" text NOT NULL, "markup" text, "created_date" bigint NOT NULL, CONSTRAINT "fk_images_owner" FOREIGN KEY ("owner_userid") REFERENCES "users" ("userid") ON DELETE SET NULL ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_images"("imageid", "guid", "owner_userid", "in_manager", "srcid", "filename", "mime", "original_ext", "variant_ext", "width", "height", "ratio", "file_size", "exif", "markup", "created_date") SELECT "imageid", "guid", "owner_userid", "in_manager", "srcid", "filename", "mime", "original_ext", "variant_ext", "width", "height", "ratio", "file_size", "exif", "markup", "created_date" FROM "images"`,
    );
    await queryRunner.query(`DROP TABLE "images"`);
    await queryRunner.query(`ALTER TABLE "temporary_images" RENAME TO "images"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_images_guid" ON "images" ("guid") `);
    await queryRunner.query(`CREATE INDEX "idx_images_in_manager" ON "images" ("in_manager") `);
    await queryRunner.query(
      `CREATE INDEX "idx_images_owner_manager" ON "images" ("owner_userid", "in_manager", "imageid") `,
    );
    await queryRunner.query(`DROP INDEX "idx_media_usage_imageid"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_media_usage" ("owner_kind" varchar(16) NOT NULL, "owner_id" integer NOT NULL, "imageid" integer NOT NULL, CONSTRAINT "fk_media_usage_image" FOREIGN KEY ("imageid") REFERENCES "images" ("imageid") ON DELETE NO ACTION ON UPDATE NO ACTION, PRIMARY KEY ("owner_kind", "owner_id", "imageid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_media_usage"("owner_kind", "owner_id", "imageid") SELECT "owner_kind", "owner_id", "imageid" FROM "media_usage"`,
    );
    await queryRunner.query(`DROP TABLE "media_usage"`);
    await queryRunner.query(`ALTER TABLE "temporary_media_usage" RENAME TO "media_usage"`);
    await queryRunner.query(`CREATE INDEX "idx_media_usage_imageid" ON "media_usage" ("imageid") `);
    await queryRunner.query(`DROP INDEX "uq_videos_guid"`);
    await queryRunner.query(`DROP INDEX "idx_videos_owner_manager"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_videos" ("videoid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guid" varchar(16) NOT NULL, "owner_userid" integer, "in_manager" boolean NOT NULL DEFAULT (1), "filename" varchar(255) NOT NULL DEFAULT (''), "mime" varchar(32) NOT NULL, "ext" varchar(8) NOT NULL, "file_size" integer NOT NULL, "width" integer NOT NULL DEFAULT (0), "height" integer NOT NULL DEFAULT (0), "duration_ms" integer NOT NULL DEFAULT (0), "thumbnail_imageid" integer, "state" varchar(16) NOT NULL, "meta" text NOT NULL, "created_date" bigint NOT NULL, CONSTRAINT "fk_videos_owner" FOREIGN KEY ("owner_userid") REFERENCES "users" ("userid") ON DELETE SET NULL ON UPDATE NO ACTION, CONSTRAINT "fk_videos_thumbnail" FOREIGN KEY ("thumbnail_imageid") REFERENCES "images" ("imageid") ON DELETE SET NULL ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_videos"("videoid", "guid", "owner_userid", "in_manager", "filename", "mime", "ext", "file_size", "width", "height", "duration_ms", "thumbnail_imageid", "state", "meta", "created_date") SELECT "videoid", "guid", "owner_userid", "in_manager", "filename", "mime", "ext", "file_size", "width", "height", "duration_ms", "thumbnail_imageid", "state", "meta", "created_date" FROM "videos"`,
    );
    await queryRunner.query(`DROP TABLE "videos"`);
    await queryRunner.query(`ALTER TABLE "temporary_videos" RENAME TO "videos"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_videos_guid" ON "videos" ("guid") `);
    await queryRunner.query(
      `CREATE INDEX "idx_videos_owner_manager" ON "videos" ("owner_userid", "in_manager", "videoid") `,
    );
    await queryRunner.query(`DROP INDEX "idx_document_tags_tagid"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_document_tags" ("doc_kind" varchar(8) NOT NULL, "docid" integer NOT NULL, "tagid" integer NOT NULL, "created_date" bigint NOT NULL, CONSTRAINT "fk_document_tags_tag" FOREIGN KEY ("tagid") REFERENCES "tags" ("tagid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("doc_kind", "docid", "tagid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_document_tags"("doc_kind", "docid", "tagid", "created_date") SELECT "doc_kind", "docid", "tagid", "created_date" FROM "document_tags"`,
    );
    await queryRunner.query(`DROP TABLE "document_tags"`);
    await queryRunner.query(`ALTER TABLE "temporary_document_tags" RENAME TO "document_tags"`);
    await queryRunner.query(`CREATE INDEX "idx_document_tags_tagid" ON "document_tags" ("tagid") `);
    await queryRunner.query(`DROP INDEX "idx_view_history_doc_date"`);
    await queryRunner.query(`DROP INDEX "idx_view_history_user_date"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_user_view_history" ("historyid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "userid" integer NOT NULL, "doc_type" varchar(8) NOT NULL, "docid" integer NOT NULL, "date" bigint NOT NULL, CONSTRAINT "fk_view_history_user" FOREIGN KEY ("userid") REFERENCES "users" ("userid") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_user_view_history"("historyid", "userid", "doc_type", "docid", "date") SELECT "historyid", "userid", "doc_type", "docid", "date" FROM "user_view_history"`,
    );
    await queryRunner.query(`DROP TABLE "user_view_history"`);
    await queryRunner.query(`ALTER TABLE "temporary_user_view_history" RENAME TO "user_view_history"`);
    await queryRunner.query(
      `CREATE INDEX "idx_view_history_doc_date" ON "user_view_history" ("doc_type", "docid", "date") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_view_history_user_date" ON "user_view_history" ("userid", "date") `);
    await queryRunner.query(`DROP INDEX "idx_wikis_parent"`);
    await queryRunner.query(`DROP INDEX "idx_wikis_namespace_modified"`);
    await queryRunner.query(`DROP INDEX "idx_wikis_namespace_title"`);
    await queryRunner.query(`DROP INDEX "uq_wikis_namespace_title"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_wikis" ("wikiid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "namespace" varchar(16) NOT NULL, "title" varchar(255) NOT NULL, "title_hash" varchar(64) NOT NULL, "langid" varchar(16) NOT NULL, "parent_wikiid" integer, "authorid" integer NOT NULL, "deleted" boolean NOT NULL DEFAULT (0), "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL, CONSTRAINT "fk_wikis_parent" FOREIGN KEY ("parent_wikiid") REFERENCES "wikis" ("wikiid") ON DELETE RESTRICT ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_wikis"("wikiid", "namespace", "title", "title_hash", "langid", "parent_wikiid", "authorid", "deleted", "created_date", "modified_date") SELECT "wikiid", "namespace", "title", "title_hash", "langid", "parent_wikiid", "authorid", "deleted", "created_date", "modified_date" FROM "wikis"`,
    );
    await queryRunner.query(`DROP TABLE "wikis"`);
    await queryRunner.query(`ALTER TABLE "temporary_wikis" RENAME TO "wikis"`);
    await queryRunner.query(`CREATE INDEX "idx_wikis_parent" ON "wikis" ("parent_wikiid") `);
    await queryRunner.query(`CREATE INDEX "idx_wikis_namespace_modified" ON "wikis" ("namespace", "modified_date") `);
    await queryRunner.query(`CREATE INDEX "idx_wikis_namespace_title" ON "wikis" ("namespace", "title") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_wikis_namespace_title" ON "wikis" ("namespace", "title_hash") `);
    await queryRunner.query(
      `CREATE TABLE "temporary_wiki_languages" ("wikiid" integer NOT NULL, "langid" varchar(16) NOT NULL, "revisionid" integer, "head_revisionid" integer NOT NULL, "source_revisionid" integer, CONSTRAINT "fk_wiki_languages_wiki" FOREIGN KEY ("wikiid") REFERENCES "wikis" ("wikiid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("wikiid", "langid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_wiki_languages"("wikiid", "langid", "revisionid", "head_revisionid", "source_revisionid") SELECT "wikiid", "langid", "revisionid", "head_revisionid", "source_revisionid" FROM "wiki_languages"`,
    );
    await queryRunner.query(`DROP TABLE "wiki_languages"`);
    await queryRunner.query(`ALTER TABLE "temporary_wiki_languages" RENAME TO "wiki_languages"`);
    await queryRunner.query(`DROP INDEX "idx_wiki_revisions_wiki_lang"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_wiki_revisions" ("revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "wikiid" integer NOT NULL, "langid" varchar(16) NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, "patrolled" boolean NOT NULL DEFAULT (0), "deleted" boolean NOT NULL DEFAULT (0), "display_title" varchar(255) NOT NULL, "summary" varchar(1000) NOT NULL DEFAULT (''), "contents" text NOT NULL, "imageid" integer, "flags" varchar(255) NOT NULL DEFAULT (''), "data" text NOT NULL, CONSTRAINT "fk_wiki_revisions_wiki" FOREIGN KEY ("wikiid") REFERENCES "wikis" ("wikiid") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_wiki_revisions"("revisionid", "wikiid", "langid", "userid", "date", "patrolled", "deleted", "display_title", "summary", "contents", "imageid", "flags", "data") SELECT "revisionid", "wikiid", "langid", "userid", "date", "patrolled", "deleted", "display_title", "summary", "contents", "imageid", "flags", "data" FROM "wiki_revisions"`,
    );
    await queryRunner.query(`DROP TABLE "wiki_revisions"`);
    await queryRunner.query(`ALTER TABLE "temporary_wiki_revisions" RENAME TO "wiki_revisions"`);
    await queryRunner.query(
      `CREATE INDEX "idx_wiki_revisions_wiki_lang" ON "wiki_revisions" ("wikiid", "langid", "revisionid") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_wiki_revisions_wiki_lang"`);
    await queryRunner.query(`ALTER TABLE "wiki_revisions" RENAME TO "temporary_wiki_revisions"`);
    await queryRunner.query(
      `CREATE TABLE "wiki_revisions" ("revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "wikiid" integer NOT NULL, "langid" varchar(16) NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, "patrolled" boolean NOT NULL DEFAULT (0), "deleted" boolean NOT NULL DEFAULT (0), "display_title" varchar(255) NOT NULL, "summary" varchar(1000) NOT NULL DEFAULT (''), "contents" text NOT NULL, "imageid" integer, "flags" varchar(255) NOT NULL DEFAULT (''), "data" text NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "wiki_revisions"("revisionid", "wikiid", "langid", "userid", "date", "patrolled", "deleted", "display_title", "summary", "contents", "imageid", "flags", "data") SELECT "revisionid", "wikiid", "langid", "userid", "date", "patrolled", "deleted", "display_title", "summary", "contents", "imageid", "flags", "data" FROM "temporary_wiki_revisions"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_wiki_revisions"`);
    await queryRunner.query(
      `CREATE INDEX "idx_wiki_revisions_wiki_lang" ON "wiki_revisions" ("wikiid", "langid", "revisionid") `,
    );
    await queryRunner.query(`ALTER TABLE "wiki_languages" RENAME TO "temporary_wiki_languages"`);
    await queryRunner.query(
      `CREATE TABLE "wiki_languages" ("wikiid" integer NOT NULL, "langid" varchar(16) NOT NULL, "revisionid" integer, "head_revisionid" integer NOT NULL, "source_revisionid" integer, PRIMARY KEY ("wikiid", "langid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "wiki_languages"("wikiid", "langid", "revisionid", "head_revisionid", "source_revisionid") SELECT "wikiid", "langid", "revisionid", "head_revisionid", "source_revisionid" FROM "temporary_wiki_languages"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_wiki_languages"`);
    await queryRunner.query(`DROP INDEX "uq_wikis_namespace_title"`);
    await queryRunner.query(`DROP INDEX "idx_wikis_namespace_title"`);
    await queryRunner.query(`DROP INDEX "idx_wikis_namespace_modified"`);
    await queryRunner.query(`DROP INDEX "idx_wikis_parent"`);
    await queryRunner.query(`ALTER TABLE "wikis" RENAME TO "temporary_wikis"`);
    await queryRunner.query(
      `CREATE TABLE "wikis" ("wikiid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "namespace" varchar(16) NOT NULL, "title" varchar(255) NOT NULL, "title_hash" varchar(64) NOT NULL, "langid" varchar(16) NOT NULL, "parent_wikiid" integer, "authorid" integer NOT NULL, "deleted" boolean NOT NULL DEFAULT (0), "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "wikis"("wikiid", "namespace", "title", "title_hash", "langid", "parent_wikiid", "authorid", "deleted", "created_date", "modified_date") SELECT "wikiid", "namespace", "title", "title_hash", "langid", "parent_wikiid", "authorid", "deleted", "created_date", "modified_date" FROM "temporary_wikis"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_wikis"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_wikis_namespace_title" ON "wikis" ("namespace", "title_hash") `);
    await queryRunner.query(`CREATE INDEX "idx_wikis_namespace_title" ON "wikis" ("namespace", "title") `);
    await queryRunner.query(`CREATE INDEX "idx_wikis_namespace_modified" ON "wikis" ("namespace", "modified_date") `);
    await queryRunner.query(`CREATE INDEX "idx_wikis_parent" ON "wikis" ("parent_wikiid") `);
    await queryRunner.query(`DROP INDEX "idx_view_history_user_date"`);
    await queryRunner.query(`DROP INDEX "idx_view_history_doc_date"`);
    await queryRunner.query(`ALTER TABLE "user_view_history" RENAME TO "temporary_user_view_history"`);
    await queryRunner.query(
      `CREATE TABLE "user_view_history" ("historyid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "userid" integer NOT NULL, "doc_type" varchar(8) NOT NULL, "docid" integer NOT NULL, "date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "user_view_history"("historyid", "userid", "doc_type", "docid", "date") SELECT "historyid", "userid", "doc_type", "docid", "date" FROM "temporary_user_view_history"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_user_view_history"`);
    await queryRunner.query(`CREATE INDEX "idx_view_history_user_date" ON "user_view_history" ("userid", "date") `);
    await queryRunner.query(
      `CREATE INDEX "idx_view_history_doc_date" ON "user_view_history" ("doc_type", "docid", "date") `,
    );
    await queryRunner.query(`DROP INDEX "idx_document_tags_tagid"`);
    await queryRunner.query(`ALTER TABLE "document_tags" RENAME TO "temporary_document_tags"`);
    await queryRunner.query(
      `CREATE TABLE "document_tags" ("doc_kind" varchar(8) NOT NULL, "docid" integer NOT NULL, "tagid" integer NOT NULL, "created_date" bigint NOT NULL, PRIMARY KEY ("doc_kind", "docid", "tagid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "document_tags"("doc_kind", "docid", "tagid", "created_date") SELECT "doc_kind", "docid", "tagid", "created_date" FROM "temporary_document_tags"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_document_tags"`);
    await queryRunner.query(`CREATE INDEX "idx_document_tags_tagid" ON "document_tags" ("tagid") `);
    await queryRunner.query(`DROP INDEX "idx_videos_owner_manager"`);
    await queryRunner.query(`DROP INDEX "uq_videos_guid"`);
    await queryRunner.query(`ALTER TABLE "videos" RENAME TO "temporary_videos"`);
    await queryRunner.query(
      `CREATE TABLE "videos" ("videoid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guid" varchar(16) NOT NULL, "owner_userid" integer, "in_manager" boolean NOT NULL DEFAULT (1), "filename" varchar(255) NOT NULL DEFAULT (''), "mime" varchar(32) NOT NULL, "ext" varchar(8) NOT NULL, "file_size" integer NOT NULL, "width" integer NOT NULL DEFAULT (0), "height" integer NOT NULL DEFAULT (0), "duration_ms" integer NOT NULL DEFAULT (0), "thumbnail_imageid" integer, "state" varchar(16) NOT NULL, "meta" text NOT NULL, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "videos"("videoid", "guid", "owner_userid", "in_manager", "filename", "mime", "ext", "file_size", "width", "height", "duration_ms", "thumbnail_imageid", "state", "meta", "created_date") SELECT "videoid", "guid", "owner_userid", "in_manager", "filename", "mime", "ext", "file_size", "width", "height", "duration_ms", "thumbnail_imageid", "state", "meta", "created_date" FROM "temporary_videos"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_videos"`);
    await queryRunner.query(
      `CREATE INDEX "idx_videos_owner_manager" ON "videos" ("owner_userid", "in_manager", "videoid") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_videos_guid" ON "videos" ("guid") `);
    await queryRunner.query(`DROP INDEX "idx_media_usage_imageid"`);
    await queryRunner.query(`ALTER TABLE "media_usage" RENAME TO "temporary_media_usage"`);
    await queryRunner.query(
      `CREATE TABLE "media_usage" ("owner_kind" varchar(16) NOT NULL, "owner_id" integer NOT NULL, "imageid" integer NOT NULL, PRIMARY KEY ("owner_kind", "owner_id", "imageid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "media_usage"("owner_kind", "owner_id", "imageid") SELECT "owner_kind", "owner_id", "imageid" FROM "temporary_media_usage"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_media_usage"`);
    await queryRunner.query(`CREATE INDEX "idx_media_usage_imageid" ON "media_usage" ("imageid") `);
    await queryRunner.query(`DROP INDEX "idx_images_owner_manager"`);
    await queryRunner.query(`DROP INDEX "idx_images_in_manager"`);
    await queryRunner.query(`DROP INDEX "uq_images_guid"`);
    await queryRunner.query(`ALTER TABLE "images" RENAME TO "temporary_images"`);
    await queryRunner.query(
      `CREATE TABLE "images" ("imageid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guid" varchar(16) NOT NULL, "owner_userid" integer, "in_manager" boolean NOT NULL DEFAULT (1), "srcid" integer, "filename" varchar(255) NOT NULL DEFAULT (''), "mime" varchar(32) NOT NULL, "original_ext" varchar(8) NOT NULL, "variant_ext" varchar(8) NOT NULL, "width" integer NOT NULL, "height" integer NOT NULL, "ratio" varchar(16) NOT NULL, "file_size" integer NOT NULL, "exif" text NOT NULL, "markup" text, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "images"("imageid", "guid", "owner_userid", "in_manager", "srcid", "filename", "mime", "original_ext", "variant_ext", "width", "height", "ratio", "file_size", "exif", "markup", "created_date") SELECT "imageid", "guid", "owner_userid", "in_manager", "srcid", "filename", "mime", "original_ext", "variant_ext", "width", "height", "ratio", "file_size", "exif", "markup", "created_date" FROM "temporary_images"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_images"`);
    await queryRunner.query(
      `CREATE INDEX "idx_images_owner_manager" ON "images" ("owner_userid", "in_manager", "imageid") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_images_in_manager" ON "images" ("in_manager") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_images_guid" ON "images" ("guid") `);
    await queryRunner.query(`DROP INDEX "idx_documents_owner_manager"`);
    await queryRunner.query(`DROP INDEX "uq_documents_guid"`);
    await queryRunner.query(`ALTER TABLE "documents" RENAME TO "temporary_documents"`);
    await queryRunner.query(
      `CREATE TABLE "documents" ("documentid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guid" varchar(16) NOT NULL, "owner_userid" integer, "in_manager" boolean NOT NULL DEFAULT (1), "filename" varchar(255) NOT NULL, "title" varchar(255) NOT NULL, "mime" varchar(128) NOT NULL, "ext" varchar(8) NOT NULL, "doc_group" varchar(16) NOT NULL, "file_size" integer NOT NULL, "storage_key" varchar(255) NOT NULL, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "documents"("documentid", "guid", "owner_userid", "in_manager", "filename", "title", "mime", "ext", "doc_group", "file_size", "storage_key", "created_date") SELECT "documentid", "guid", "owner_userid", "in_manager", "filename", "title", "mime", "ext", "doc_group", "file_size", "storage_key", "created_date" FROM "temporary_documents"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_documents"`);
    await queryRunner.query(
      `CREATE INDEX "idx_documents_owner_manager" ON "documents" ("owner_userid", "in_manager", "documentid") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_documents_guid" ON "documents" ("guid") `);
    await queryRunner.query(`DROP INDEX "idx_team_members_userid"`);
    await queryRunner.query(`ALTER TABLE "team_members" RENAME TO "temporary_team_members"`);
    await queryRunner.query(
      `CREATE TABLE "team_members" ("teamid" integer NOT NULL, "userid" integer NOT NULL, "joined_date" bigint NOT NULL, PRIMARY KEY ("teamid", "userid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "team_members"("teamid", "userid", "joined_date") SELECT "teamid", "userid", "joined_date" FROM "temporary_team_members"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_team_members"`);
    await queryRunner.query(`CREATE INDEX "idx_team_members_userid" ON "team_members" ("userid") `);
    await queryRunner.query(`DROP INDEX "idx_user_badges_badgeid"`);
    await queryRunner.query(`ALTER TABLE "user_badges" RENAME TO "temporary_user_badges"`);
    await queryRunner.query(
      `CREATE TABLE "user_badges" ("userid" integer NOT NULL, "badgeid" integer NOT NULL, "times_earned" integer NOT NULL DEFAULT (1), "earned_date" bigint NOT NULL, PRIMARY KEY ("userid", "badgeid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "user_badges"("userid", "badgeid", "times_earned", "earned_date") SELECT "userid", "badgeid", "times_earned", "earned_date" FROM "temporary_user_badges"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_user_badges"`);
    await queryRunner.query(`CREATE INDEX "idx_user_badges_badgeid" ON "user_badges" ("badgeid") `);
    await queryRunner.query(`DROP INDEX "uq_auth_tokens_hash"`);
    await queryRunner.query(`DROP INDEX "idx_auth_tokens_userid"`);
    await queryRunner.query(`ALTER TABLE "auth_tokens" RENAME TO "temporary_auth_tokens"`);
    await queryRunner.query(
      `CREATE TABLE "auth_tokens" ("tokenid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "userid" integer NOT NULL, "token_hash" varchar(64) NOT NULL, "app_id" varchar(255), "created_date" bigint NOT NULL, "last_used_date" bigint, "revoked_date" bigint)`,
    );
    await queryRunner.query(
      `INSERT INTO "auth_tokens"("tokenid", "userid", "token_hash", "app_id", "created_date", "last_used_date", "revoked_date") SELECT "tokenid", "userid", "token_hash", "app_id", "created_date", "last_used_date", "revoked_date" FROM "temporary_auth_tokens"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_auth_tokens"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_auth_tokens_hash" ON "auth_tokens" ("token_hash") `);
    await queryRunner.query(`CREATE INDEX "idx_auth_tokens_userid" ON "auth_tokens" ("userid") `);
    await queryRunner.query(`DROP INDEX "idx_comments_context"`);
    await queryRunner.query(`DROP INDEX "idx_comments_parentid"`);
    await queryRunner.query(`DROP INDEX "idx_comments_modified_date"`);
    await queryRunner.query(`ALTER TABLE "comments" RENAME TO "temporary_comments"`);
    await queryRunner.query(
      `CREATE TABLE "comments" ("commentid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "context" varchar(16) NOT NULL, "contextid" integer NOT NULL, "parentid" integer, "userid" integer NOT NULL, "title" varchar(255) NOT NULL DEFAULT (''), "text_raw" text NOT NULL, "status" varchar(16) NOT NULL DEFAULT ('public'), "langid" varchar(16), "created_date" bigint NOT NULL, "modified_date" bigint NOT NULL DEFAULT (0), "replied_date" bigint NOT NULL DEFAULT (0))`,
    );
    await queryRunner.query(
      `INSERT INTO "comments"("commentid", "context", "contextid", "parentid", "userid", "title", "text_raw", "status", "langid", "created_date", "modified_date", "replied_date") SELECT "commentid", "context", "contextid", "parentid", "userid", "title", "text_raw", "status", "langid", "created_date", "modified_date", "replied_date" FROM "temporary_comments"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_comments"`);
    await queryRunner.query(`CREATE INDEX "idx_comments_context" ON "comments" ("context", "contextid") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_parentid" ON "comments" ("parentid") `);
    await queryRunner.query(`CREATE INDEX "idx_comments_modified_date" ON "comments" ("modified_date") `);
    await queryRunner.query(`DROP INDEX "idx_guide_favorites_user"`);
    await queryRunner.query(`ALTER TABLE "guide_favorites" RENAME TO "temporary_guide_favorites"`);
    await queryRunner.query(
      `CREATE TABLE "guide_favorites" ("guideid" integer NOT NULL, "userid" integer NOT NULL, "langid" varchar(16) NOT NULL, "date" bigint NOT NULL, PRIMARY KEY ("guideid", "userid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "guide_favorites"("guideid", "userid", "langid", "date") SELECT "guideid", "userid", "langid", "date" FROM "temporary_guide_favorites"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_guide_favorites"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_favorites_user" ON "guide_favorites" ("userid", "date") `);
    await queryRunner.query(`DROP INDEX "idx_guide_completions_user"`);
    await queryRunner.query(`ALTER TABLE "guide_completions" RENAME TO "temporary_guide_completions"`);
    await queryRunner.query(
      `CREATE TABLE "guide_completions" ("guideid" integer NOT NULL, "userid" integer NOT NULL, "langid" varchar(16) NOT NULL, "date" bigint NOT NULL, PRIMARY KEY ("guideid", "userid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "guide_completions"("guideid", "userid", "langid", "date") SELECT "guideid", "userid", "langid", "date" FROM "temporary_guide_completions"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_guide_completions"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_completions_user" ON "guide_completions" ("userid", "date") `);
    await queryRunner.query(`DROP INDEX "idx_guide_team_grants_team"`);
    await queryRunner.query(`ALTER TABLE "guide_team_grants" RENAME TO "temporary_guide_team_grants"`);
    await queryRunner.query(
      `CREATE TABLE "guide_team_grants" ("guideid" integer NOT NULL, "teamid" integer NOT NULL, "date" bigint NOT NULL, PRIMARY KEY ("guideid", "teamid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "guide_team_grants"("guideid", "teamid", "date") SELECT "guideid", "teamid", "date" FROM "temporary_guide_team_grants"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_guide_team_grants"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_team_grants_team" ON "guide_team_grants" ("teamid") `);
    await queryRunner.query(`DROP INDEX "idx_guide_user_grants_user"`);
    await queryRunner.query(`ALTER TABLE "guide_user_grants" RENAME TO "temporary_guide_user_grants"`);
    await queryRunner.query(
      `CREATE TABLE "guide_user_grants" ("guideid" integer NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, PRIMARY KEY ("guideid", "userid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "guide_user_grants"("guideid", "userid", "date") SELECT "guideid", "userid", "date" FROM "temporary_guide_user_grants"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_guide_user_grants"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_user_grants_user" ON "guide_user_grants" ("userid") `);
    await queryRunner.query(`DROP INDEX "idx_guide_step_revisions_step"`);
    await queryRunner.query(`ALTER TABLE "guide_step_revisions" RENAME TO "temporary_guide_step_revisions"`);
    await queryRunner.query(
      `CREATE TABLE "guide_step_revisions" ("revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "stepid" integer NOT NULL, "guideid" integer NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, "data" json NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "guide_step_revisions"("revisionid", "stepid", "guideid", "userid", "date", "data") SELECT "revisionid", "stepid", "guideid", "userid", "date", "data" FROM "temporary_guide_step_revisions"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_guide_step_revisions"`);
    await queryRunner.query(
      `CREATE INDEX "idx_guide_step_revisions_step" ON "guide_step_revisions" ("stepid", "revisionid") `,
    );
    await queryRunner.query(`DROP INDEX "idx_guide_steps_guide"`);
    await queryRunner.query(`ALTER TABLE "guide_steps" RENAME TO "temporary_guide_steps"`);
    await queryRunner.query(
      `CREATE TABLE "guide_steps" ("stepid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guideid" integer NOT NULL, "revisionid" integer NOT NULL, "deleted" boolean NOT NULL DEFAULT (0))`,
    );
    await queryRunner.query(
      `INSERT INTO "guide_steps"("stepid", "guideid", "revisionid", "deleted") SELECT "stepid", "guideid", "revisionid", "deleted" FROM "temporary_guide_steps"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_guide_steps"`);
    await queryRunner.query(`CREATE INDEX "idx_guide_steps_guide" ON "guide_steps" ("guideid") `);
    await queryRunner.query(`ALTER TABLE "guide_translations" RENAME TO "temporary_guide_translations"`);
    await queryRunner.query(
      `CREATE TABLE "guide_translations" ("guideid" integer NOT NULL, "langid" varchar(16) NOT NULL, "revisionid" integer, "head_revisionid" integer NOT NULL, PRIMARY KEY ("guideid", "langid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "guide_translations"("guideid", "langid", "revisionid", "head_revisionid") SELECT "guideid", "langid", "revisionid", "head_revisionid" FROM "temporary_guide_translations"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_guide_translations"`);
    await queryRunner.query(`DROP INDEX "idx_guide_revisions_guide_lang"`);
    await queryRunner.query(`DROP INDEX "idx_guide_revisions_user"`);
    await queryRunner.query(`ALTER TABLE "guide_revisions" RENAME TO "temporary_guide_revisions"`);
    await queryRunner.query(
      `CREATE TABLE "guide_revisions" ("revisionid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "guideid" integer NOT NULL, "langid" varchar(16) NOT NULL, "userid" integer NOT NULL, "date" bigint NOT NULL, "patrolled" boolean NOT NULL DEFAULT (0), "data" json NOT NULL, "document" json, "render_key" varchar(64) NOT NULL DEFAULT (''))`,
    );
    await queryRunner.query(
      `INSERT INTO "guide_revisions"("revisionid", "guideid", "langid", "userid", "date", "patrolled", "data", "document", "render_key") SELECT "revisionid", "guideid", "langid", "userid", "date", "patrolled", "data", "document", "render_key" FROM "temporary_guide_revisions"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_guide_revisions"`);
    await queryRunner.query(
      `CREATE INDEX "idx_guide_revisions_guide_lang" ON "guide_revisions" ("guideid", "langid", "revisionid") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_guide_revisions_user" ON "guide_revisions" ("userid", "guideid") `);
    await queryRunner.query(`DROP INDEX "idx_wiki_revisions_wiki_lang"`);
    await queryRunner.query(`DROP TABLE "wiki_revisions"`);
    await queryRunner.query(`DROP TABLE "wiki_languages"`);
    await queryRunner.query(`DROP INDEX "uq_wikis_namespace_title"`);
    await queryRunner.query(`DROP INDEX "idx_wikis_namespace_title"`);
    await queryRunner.query(`DROP INDEX "idx_wikis_namespace_modified"`);
    await queryRunner.query(`DROP INDEX "idx_wikis_parent"`);
    await queryRunner.query(`DROP TABLE "wikis"`);
    await queryRunner.query(`DROP INDEX "idx_wiki_category_guides_category"`);
    await queryRunner.query(`DROP TABLE "wiki_category_guides"`);
    await queryRunner.query(`DROP INDEX "idx_view_history_user_date"`);
    await queryRunner.query(`DROP INDEX "idx_view_history_doc_date"`);
    await queryRunner.query(`DROP TABLE "user_view_history"`);
    await queryRunner.query(`DROP INDEX "idx_document_tags_tagid"`);
    await queryRunner.query(`DROP TABLE "document_tags"`);
    await queryRunner.query(`DROP INDEX "uq_tags_name_key"`);
    await queryRunner.query(`DROP TABLE "tags"`);
    await queryRunner.query(`DROP INDEX "idx_videos_owner_manager"`);
    await queryRunner.query(`DROP INDEX "uq_videos_guid"`);
    await queryRunner.query(`DROP TABLE "videos"`);
    await queryRunner.query(`DROP INDEX "idx_media_usage_imageid"`);
    await queryRunner.query(`DROP TABLE "media_usage"`);
    await queryRunner.query(`DROP INDEX "idx_images_owner_manager"`);
    await queryRunner.query(`DROP INDEX "idx_images_in_manager"`);
    await queryRunner.query(`DROP INDEX "uq_images_guid"`);
    await queryRunner.query(`DROP TABLE "images"`);
    await queryRunner.query(`DROP INDEX "idx_documents_owner_manager"`);
    await queryRunner.query(`DROP INDEX "uq_documents_guid"`);
    await queryRunner.query(`DROP TABLE "documents"`);
    await queryRunner.query(`DROP INDEX "idx_team_members_userid"`);
    await queryRunner.query(`DROP TABLE "team_members"`);
    await queryRunner.query(`DROP INDEX "uq_teams_name"`);
    await queryRunner.query(`DROP TABLE "teams"`);
    await queryRunner.query(`DROP INDEX "idx_user_badges_badgeid"`);
    await queryRunner.query(`DROP TABLE "user_badges"`);
    await queryRunner.query(`DROP INDEX "uq_reputation_awards"`);
    await queryRunner.query(`DROP TABLE "reputation_awards"`);
    await queryRunner.query(`DROP INDEX "uq_auth_tokens_hash"`);
    await queryRunner.query(`DROP INDEX "idx_auth_tokens_userid"`);
    await queryRunner.query(`DROP TABLE "auth_tokens"`);
    await queryRunner.query(`DROP INDEX "idx_comments_context"`);
    await queryRunner.query(`DROP INDEX "idx_comments_parentid"`);
    await queryRunner.query(`DROP INDEX "idx_comments_modified_date"`);
    await queryRunner.query(`DROP TABLE "comments"`);
    await queryRunner.query(`DROP INDEX "idx_users_created_by"`);
    await queryRunner.query(`DROP INDEX "uq_users_employee_id"`);
    await queryRunner.query(`DROP INDEX "uq_users_sso_userid"`);
    await queryRunner.query(`DROP INDEX "idx_users_join_date"`);
    await queryRunner.query(`DROP INDEX "uq_users_unique_username"`);
    await queryRunner.query(`DROP INDEX "idx_users_username"`);
    await queryRunner.query(`DROP INDEX "uq_users_email"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "idx_guide_favorites_user"`);
    await queryRunner.query(`DROP TABLE "guide_favorites"`);
    await queryRunner.query(`DROP INDEX "idx_guide_completions_user"`);
    await queryRunner.query(`DROP TABLE "guide_completions"`);
    await queryRunner.query(`DROP INDEX "idx_guide_team_grants_team"`);
    await queryRunner.query(`DROP TABLE "guide_team_grants"`);
    await queryRunner.query(`DROP INDEX "idx_guide_user_grants_user"`);
    await queryRunner.query(`DROP TABLE "guide_user_grants"`);
    await queryRunner.query(`DROP INDEX "idx_guide_step_revisions_step"`);
    await queryRunner.query(`DROP TABLE "guide_step_revisions"`);
    await queryRunner.query(`DROP INDEX "idx_guide_steps_guide"`);
    await queryRunner.query(`DROP TABLE "guide_steps"`);
    await queryRunner.query(`DROP TABLE "guide_translations"`);
    await queryRunner.query(`DROP INDEX "idx_guide_revisions_guide_lang"`);
    await queryRunner.query(`DROP INDEX "idx_guide_revisions_user"`);
    await queryRunner.query(`DROP TABLE "guide_revisions"`);
    await queryRunner.query(`DROP INDEX "idx_guides_public_deleted"`);
    await queryRunner.query(`DROP INDEX "idx_guides_author"`);
    await queryRunner.query(`DROP INDEX "idx_guides_modified"`);
    await queryRunner.query(`DROP TABLE "guides"`);
  }
}
