import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795304022779 implements MigrationInterface {
  name = 'Initial1795304022779';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`guides\` (\`guideid\` int NOT NULL AUTO_INCREMENT, \`authorid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, \`category\` varchar(255) NOT NULL, \`title\` varchar(255) NOT NULL, \`type\` varchar(16) NOT NULL, \`public\` tinyint NOT NULL DEFAULT 0, \`deleted\` tinyint NOT NULL DEFAULT 0, \`flags\` varchar(255) NOT NULL DEFAULT '', \`revisionid\` int NOT NULL, \`head_revisionid\` int NOT NULL, \`created_date\` bigint NOT NULL, \`modified_date\` bigint NOT NULL, \`published_date\` bigint NOT NULL DEFAULT '0', INDEX \`idx_guides_modified\` (\`modified_date\`), INDEX \`idx_guides_author\` (\`authorid\`), INDEX \`idx_guides_public_deleted\` (\`public\`, \`deleted\`, \`guideid\`), PRIMARY KEY (\`guideid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`guide_revisions\` (\`revisionid\` int NOT NULL AUTO_INCREMENT, \`guideid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, \`userid\` int NOT NULL, \`date\` bigint NOT NULL, \`patrolled\` tinyint NOT NULL DEFAULT 0, \`data\` json NOT NULL, \`document\` json NULL, \`render_key\` varchar(64) NOT NULL DEFAULT '', INDEX \`idx_guide_revisions_user\` (\`userid\`, \`guideid\`), INDEX \`idx_guide_revisions_guide_lang\` (\`guideid\`, \`langid\`, \`revisionid\`), PRIMARY KEY (\`revisionid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`guide_translations\` (\`guideid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, \`revisionid\` int NULL, \`head_revisionid\` int NOT NULL, PRIMARY KEY (\`guideid\`, \`langid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`guide_steps\` (\`stepid\` int NOT NULL AUTO_INCREMENT, \`guideid\` int NOT NULL, \`revisionid\` int NOT NULL, \`deleted\` tinyint NOT NULL DEFAULT 0, INDEX \`idx_guide_steps_guide\` (\`guideid\`), PRIMARY KEY (\`stepid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`guide_step_revisions\` (\`revisionid\` int NOT NULL AUTO_INCREMENT, \`stepid\` int NOT NULL, \`guideid\` int NOT NULL, \`userid\` int NOT NULL, \`date\` bigint NOT NULL, \`data\` json NOT NULL, INDEX \`idx_guide_step_revisions_step\` (\`stepid\`, \`revisionid\`), PRIMARY KEY (\`revisionid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`guide_user_grants\` (\`guideid\` int NOT NULL, \`userid\` int NOT NULL, \`date\` bigint NOT NULL, INDEX \`idx_guide_user_grants_user\` (\`userid\`), PRIMARY KEY (\`guideid\`, \`userid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`guide_team_grants\` (\`guideid\` int NOT NULL, \`teamid\` int NOT NULL, \`date\` bigint NOT NULL, INDEX \`idx_guide_team_grants_team\` (\`teamid\`), PRIMARY KEY (\`guideid\`, \`teamid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`guide_completions\` (\`guideid\` int NOT NULL, \`userid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, \`date\` bigint NOT NULL, INDEX \`idx_guide_completions_user\` (\`userid\`, \`date\`), PRIMARY KEY (\`guideid\`, \`userid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`guide_favorites\` (\`guideid\` int NOT NULL, \`userid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, \`date\` bigint NOT NULL, INDEX \`idx_guide_favorites_user\` (\`userid\`, \`date\`), PRIMARY KEY (\`guideid\`, \`userid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`users\` (\`userid\` int NOT NULL AUTO_INCREMENT, \`email\` varchar(255) NOT NULL, \`username\` varchar(255) NOT NULL, \`unique_username\` varchar(64) NULL, \`password_hash\` varchar(255) NULL, \`privileges\` varchar(255) NOT NULL DEFAULT '', \`join_date\` bigint NOT NULL, \`reputation\` int NOT NULL DEFAULT '0', \`enabled\` tinyint NOT NULL DEFAULT 1, \`banned\` bigint NOT NULL DEFAULT '0', \`sso_userid\` varchar(255) NULL, \`employee_id\` varchar(255) NULL, \`summary\` varchar(255) NOT NULL DEFAULT '', \`about_raw\` text NOT NULL, \`langid\` varchar(16) NOT NULL DEFAULT 'en', \`imageid\` int NULL, \`created_by_userid\` int NULL, UNIQUE INDEX \`uq_users_email\` (\`email\`), INDEX \`idx_users_username\` (\`username\`), UNIQUE INDEX \`uq_users_unique_username\` (\`unique_username\`), INDEX \`idx_users_join_date\` (\`join_date\`), UNIQUE INDEX \`uq_users_sso_userid\` (\`sso_userid\`), UNIQUE INDEX \`uq_users_employee_id\` (\`employee_id\`), INDEX \`idx_users_created_by\` (\`created_by_userid\`), PRIMARY KEY (\`userid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`comments\` (\`commentid\` int NOT NULL AUTO_INCREMENT, \`context\` varchar(16) NOT NULL, \`contextid\` int NOT NULL, \`parentid\` int NULL, \`userid\` int NOT NULL, \`title\` varchar(255) NOT NULL DEFAULT '', \`text_raw\` text NOT NULL, \`status\` varchar(16) NOT NULL DEFAULT 'public', \`langid\` varchar(16) NULL, \`created_date\` bigint NOT NULL, \`modified_date\` bigint NOT NULL DEFAULT '0', \`replied_date\` bigint NOT NULL DEFAULT '0', INDEX \`idx_comments_modified_date\` (\`modified_date\`), INDEX \`idx_comments_parentid\` (\`parentid\`), INDEX \`idx_comments_context\` (\`context\`, \`contextid\`), PRIMARY KEY (\`commentid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`auth_tokens\` (\`tokenid\` int NOT NULL AUTO_INCREMENT, \`userid\` int NOT NULL, \`token_hash\` varchar(64) NOT NULL, \`app_id\` varchar(255) NULL, \`created_date\` bigint NOT NULL, \`last_used_date\` bigint NULL, \`revoked_date\` bigint NULL, INDEX \`idx_auth_tokens_userid\` (\`userid\`), UNIQUE INDEX \`uq_auth_tokens_hash\` (\`token_hash\`), PRIMARY KEY (\`tokenid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`reputation_awards\` (\`awardid\` int NOT NULL AUTO_INCREMENT, \`userid\` int NOT NULL, \`kind\` varchar(32) NOT NULL, \`subject\` varchar(64) NOT NULL, \`points\` int NOT NULL, \`created_date\` bigint NOT NULL, UNIQUE INDEX \`uq_reputation_awards\` (\`userid\`, \`kind\`, \`subject\`), PRIMARY KEY (\`awardid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`user_badges\` (\`userid\` int NOT NULL, \`badgeid\` int NOT NULL, \`times_earned\` int NOT NULL DEFAULT '1', \`earned_date\` bigint NOT NULL, INDEX \`idx_user_badges_badgeid\` (\`badgeid\`), PRIMARY KEY (\`userid\`, \`badgeid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`teams\` (\`teamid\` int NOT NULL AUTO_INCREMENT, \`name\` varchar(255) NOT NULL, \`description\` text NOT NULL, \`owner_userid\` int NULL, \`created_by_userid\` int NULL, \`created_date\` bigint NOT NULL, UNIQUE INDEX \`uq_teams_name\` (\`name\`), PRIMARY KEY (\`teamid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`team_members\` (\`teamid\` int NOT NULL, \`userid\` int NOT NULL, \`joined_date\` bigint NOT NULL, INDEX \`idx_team_members_userid\` (\`userid\`), PRIMARY KEY (\`teamid\`, \`userid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`documents\` (\`documentid\` int NOT NULL AUTO_INCREMENT, \`guid\` varchar(16) NOT NULL, \`owner_userid\` int NULL, \`in_manager\` tinyint NOT NULL DEFAULT 1, \`filename\` varchar(255) NOT NULL, \`title\` varchar(255) NOT NULL, \`mime\` varchar(128) NOT NULL, \`ext\` varchar(8) NOT NULL, \`doc_group\` varchar(16) NOT NULL, \`file_size\` int NOT NULL, \`storage_key\` varchar(255) NOT NULL, \`created_date\` bigint NOT NULL, UNIQUE INDEX \`uq_documents_guid\` (\`guid\`), INDEX \`idx_documents_owner_manager\` (\`owner_userid\`, \`in_manager\`, \`documentid\`), PRIMARY KEY (\`documentid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`images\` (\`imageid\` int NOT NULL AUTO_INCREMENT, \`guid\` varchar(16) NOT NULL, \`owner_userid\` int NULL, \`in_manager\` tinyint NOT NULL DEFAULT 1, \`srcid\` int NULL, \`filename\` varchar(255) NOT NULL DEFAULT '', \`mime\` varchar(32) NOT NULL, \`original_ext\` varchar(8) NOT NULL, \`variant_ext\` varchar(8) NOT NULL, \`width\` int NOT NULL, \`height\` int NOT NULL, \`ratio\` varchar(16) NOT NULL, \`file_size\` int NOT NULL, \`exif\` text NOT NULL, \`markup\` text NULL, \`created_date\` bigint NOT NULL, UNIQUE INDEX \`uq_images_guid\` (\`guid\`), INDEX \`idx_images_in_manager\` (\`in_manager\`), INDEX \`idx_images_owner_manager\` (\`owner_userid\`, \`in_manager\`, \`imageid\`), PRIMARY KEY (\`imageid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`media_usage\` (\`owner_kind\` varchar(16) NOT NULL, \`owner_id\` int NOT NULL, \`imageid\` int NOT NULL, INDEX \`idx_media_usage_imageid\` (\`imageid\`), PRIMARY KEY (\`owner_kind\`, \`owner_id\`, \`imageid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`videos\` (\`videoid\` int NOT NULL AUTO_INCREMENT, \`guid\` varchar(16) NOT NULL, \`owner_userid\` int NULL, \`in_manager\` tinyint NOT NULL DEFAULT 1, \`filename\` varchar(255) NOT NULL DEFAULT '', \`mime\` varchar(32) NOT NULL, \`ext\` varchar(8) NOT NULL, \`file_size\` int NOT NULL, \`width\` int NOT NULL DEFAULT '0', \`height\` int NOT NULL DEFAULT '0', \`duration_ms\` int NOT NULL DEFAULT '0', \`thumbnail_imageid\` int NULL, \`state\` varchar(16) NOT NULL, \`meta\` text NOT NULL, \`created_date\` bigint NOT NULL, UNIQUE INDEX \`uq_videos_guid\` (\`guid\`), INDEX \`idx_videos_owner_manager\` (\`owner_userid\`, \`in_manager\`, \`videoid\`), PRIMARY KEY (\`videoid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`tags\` (\`tagid\` int NOT NULL AUTO_INCREMENT, \`name\` varchar(32) NOT NULL, \`name_key\` varchar(64) NOT NULL, \`created_date\` bigint NOT NULL, UNIQUE INDEX \`uq_tags_name_key\` (\`name_key\`), PRIMARY KEY (\`tagid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`document_tags\` (\`doc_kind\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`tagid\` int NOT NULL, \`created_date\` bigint NOT NULL, INDEX \`idx_document_tags_tagid\` (\`tagid\`), PRIMARY KEY (\`doc_kind\`, \`docid\`, \`tagid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`user_view_history\` (\`historyid\` int NOT NULL AUTO_INCREMENT, \`userid\` int NOT NULL, \`doc_type\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`date\` bigint NOT NULL, INDEX \`idx_view_history_doc_date\` (\`doc_type\`, \`docid\`, \`date\`), INDEX \`idx_view_history_user_date\` (\`userid\`, \`date\`), PRIMARY KEY (\`historyid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`wiki_category_guides\` (\`guideid\` int NOT NULL, \`category\` varchar(255) NOT NULL, \`category_hash\` varchar(64) NOT NULL, \`title\` varchar(255) NOT NULL, INDEX \`idx_wiki_category_guides_category\` (\`category_hash\`), PRIMARY KEY (\`guideid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`wikis\` (\`wikiid\` int NOT NULL AUTO_INCREMENT, \`namespace\` varchar(16) NOT NULL, \`title\` varchar(255) NOT NULL, \`title_hash\` varchar(64) NOT NULL, \`langid\` varchar(16) NOT NULL, \`parent_wikiid\` int NULL, \`authorid\` int NOT NULL, \`deleted\` tinyint NOT NULL DEFAULT 0, \`created_date\` bigint NOT NULL, \`modified_date\` bigint NOT NULL, INDEX \`idx_wikis_parent\` (\`parent_wikiid\`), INDEX \`idx_wikis_namespace_modified\` (\`namespace\`, \`modified_date\`), INDEX \`idx_wikis_namespace_title\` (\`namespace\`, \`title\`), UNIQUE INDEX \`uq_wikis_namespace_title\` (\`namespace\`, \`title_hash\`), PRIMARY KEY (\`wikiid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`wiki_languages\` (\`wikiid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, \`revisionid\` int NULL, \`head_revisionid\` int NOT NULL, \`source_revisionid\` int NULL, PRIMARY KEY (\`wikiid\`, \`langid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`wiki_revisions\` (\`revisionid\` int NOT NULL AUTO_INCREMENT, \`wikiid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, \`userid\` int NOT NULL, \`date\` bigint NOT NULL, \`patrolled\` tinyint NOT NULL DEFAULT 0, \`deleted\` tinyint NOT NULL DEFAULT 0, \`display_title\` varchar(255) NOT NULL, \`summary\` varchar(1000) NOT NULL DEFAULT '', \`contents\` text NOT NULL, \`imageid\` int NULL, \`flags\` varchar(255) NOT NULL DEFAULT '', \`data\` text NOT NULL, INDEX \`idx_wiki_revisions_wiki_lang\` (\`wikiid\`, \`langid\`, \`revisionid\`), PRIMARY KEY (\`revisionid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `ALTER TABLE \`guide_revisions\` ADD CONSTRAINT \`fk_guide_revisions_guide\` FOREIGN KEY (\`guideid\`) REFERENCES \`guides\`(\`guideid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`guide_translations\` ADD CONSTRAINT \`fk_guide_translations_guide\` FOREIGN KEY (\`guideid\`) REFERENCES \`guides\`(\`guideid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`guide_steps\` ADD CONSTRAINT \`fk_guide_steps_guide\` FOREIGN KEY (\`guideid\`) REFERENCES \`guides\`(\`guideid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`guide_step_revisions\` ADD CONSTRAINT \`fk_guide_step_revisions_step\` FOREIGN KEY (\`stepid\`) REFERENCES \`guide_steps\`(\`stepid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`guide_user_grants\` ADD CONSTRAINT \`fk_guide_user_grants_guide\` FOREIGN KEY (\`guideid\`) REFERENCES \`guides\`(\`guideid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`guide_team_grants\` ADD CONSTRAINT \`fk_guide_team_grants_guide\` FOREIGN KEY (\`guideid\`) REFERENCES \`guides\`(\`guideid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`guide_completions\` ADD CONSTRAINT \`fk_guide_completions_guide\` FOREIGN KEY (\`guideid\`) REFERENCES \`guides\`(\`guideid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`guide_favorites\` ADD CONSTRAINT \`fk_guide_favorites_guide\` FOREIGN KEY (\`guideid\`) REFERENCES \`guides\`(\`guideid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`comments\` ADD CONSTRAINT \`fk_comments_user\` FOREIGN KEY (\`userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`auth_tokens\` ADD CONSTRAINT \`fk_auth_tokens_user\` FOREIGN KEY (\`userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`user_badges\` ADD CONSTRAINT \`fk_user_badges_user\` FOREIGN KEY (\`userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`team_members\` ADD CONSTRAINT \`fk_team_members_team\` FOREIGN KEY (\`teamid\`) REFERENCES \`teams\`(\`teamid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`team_members\` ADD CONSTRAINT \`fk_team_members_user\` FOREIGN KEY (\`userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`documents\` ADD CONSTRAINT \`fk_documents_owner\` FOREIGN KEY (\`owner_userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`images\` ADD CONSTRAINT \`fk_images_owner\` FOREIGN KEY (\`owner_userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`media_usage\` ADD CONSTRAINT \`fk_media_usage_image\` FOREIGN KEY (\`imageid\`) REFERENCES \`images\`(\`imageid\`) ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`videos\` ADD CONSTRAINT \`fk_videos_owner\` FOREIGN KEY (\`owner_userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`videos\` ADD CONSTRAINT \`fk_videos_thumbnail\` FOREIGN KEY (\`thumbnail_imageid\`) REFERENCES \`images\`(\`imageid\`) ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`document_tags\` ADD CONSTRAINT \`fk_document_tags_tag\` FOREIGN KEY (\`tagid\`) REFERENCES \`tags\`(\`tagid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`user_view_history\` ADD CONSTRAINT \`fk_view_history_user\` FOREIGN KEY (\`userid\`) REFERENCES \`users\`(\`userid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`wikis\` ADD CONSTRAINT \`fk_wikis_parent\` FOREIGN KEY (\`parent_wikiid\`) REFERENCES \`wikis\`(\`wikiid\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`wiki_languages\` ADD CONSTRAINT \`fk_wiki_languages_wiki\` FOREIGN KEY (\`wikiid\`) REFERENCES \`wikis\`(\`wikiid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`wiki_revisions\` ADD CONSTRAINT \`fk_wiki_revisions_wiki\` FOREIGN KEY (\`wikiid\`) REFERENCES \`wikis\`(\`wikiid\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`wiki_revisions\` DROP FOREIGN KEY \`fk_wiki_revisions_wiki\``);
    await queryRunner.query(`ALTER TABLE \`wiki_languages\` DROP FOREIGN KEY \`fk_wiki_languages_wiki\``);
    await queryRunner.query(`ALTER TABLE \`wikis\` DROP FOREIGN KEY \`fk_wikis_parent\``);
    await queryRunner.query(`ALTER TABLE \`user_view_history\` DROP FOREIGN KEY \`fk_view_history_user\``);
    await queryRunner.query(`ALTER TABLE \`document_tags\` DROP FOREIGN KEY \`fk_document_tags_tag\``);
    await queryRunner.query(`ALTER TABLE \`videos\` DROP FOREIGN KEY \`fk_videos_thumbnail\``);
    await queryRunner.query(`ALTER TABLE \`videos\` DROP FOREIGN KEY \`fk_videos_owner\``);
    await queryRunner.query(`ALTER TABLE \`media_usage\` DROP FOREIGN KEY \`fk_media_usage_image\``);
    await queryRunner.query(`ALTER TABLE \`images\` DROP FOREIGN KEY \`fk_images_owner\``);
    await queryRunner.query(`ALTER TABLE \`documents\` DROP FOREIGN KEY \`fk_documents_owner\``);
    await queryRunner.query(`ALTER TABLE \`team_members\` DROP FOREIGN KEY \`fk_team_members_user\``);
    await queryRunner.query(`ALTER TABLE \`team_members\` DROP FOREIGN KEY \`fk_team_members_team\``);
    await queryRunner.query(`ALTER TABLE \`user_badges\` DROP FOREIGN KEY \`fk_user_badges_user\``);
    await queryRunner.query(`ALTER TABLE \`auth_tokens\` DROP FOREIGN KEY \`fk_auth_tokens_user\``);
    await queryRunner.query(`ALTER TABLE \`comments\` DROP FOREIGN KEY \`fk_comments_user\``);
    await queryRunner.query(`ALTER TABLE \`guide_favorites\` DROP FOREIGN KEY \`fk_guide_favorites_guide\``);
    await queryRunner.query(`ALTER TABLE \`guide_completions\` DROP FOREIGN KEY \`fk_guide_completions_guide\``);
    await queryRunner.query(`ALTER TABLE \`guide_team_grants\` DROP FOREIGN KEY \`fk_guide_team_grants_guide\``);
    await queryRunner.query(`ALTER TABLE \`guide_user_grants\` DROP FOREIGN KEY \`fk_guide_user_grants_guide\``);
    await queryRunner.query(`ALTER TABLE \`guide_step_revisions\` DROP FOREIGN KEY \`fk_guide_step_revisions_step\``);
    await queryRunner.query(`ALTER TABLE \`guide_steps\` DROP FOREIGN KEY \`fk_guide_steps_guide\``);
    await queryRunner.query(`ALTER TABLE \`guide_translations\` DROP FOREIGN KEY \`fk_guide_translations_guide\``);
    await queryRunner.query(`ALTER TABLE \`guide_revisions\` DROP FOREIGN KEY \`fk_guide_revisions_guide\``);
    await queryRunner.query(`DROP INDEX \`idx_wiki_revisions_wiki_lang\` ON \`wiki_revisions\``);
    await queryRunner.query(`DROP TABLE \`wiki_revisions\``);
    await queryRunner.query(`DROP TABLE \`wiki_languages\``);
    await queryRunner.query(`DROP INDEX \`uq_wikis_namespace_title\` ON \`wikis\``);
    await queryRunner.query(`DROP INDEX \`idx_wikis_namespace_title\` ON \`wikis\``);
    await queryRunner.query(`DROP INDEX \`idx_wikis_namespace_modified\` ON \`wikis\``);
    await queryRunner.query(`DROP INDEX \`idx_wikis_parent\` ON \`wikis\``);
    await queryRunner.query(`DROP TABLE \`wikis\``);
    await queryRunner.query(`DROP INDEX \`idx_wiki_category_guides_category\` ON \`wiki_category_guides\``);
    await queryRunner.query(`DROP TABLE \`wiki_category_guides\``);
    await queryRunner.query(`DROP INDEX \`idx_view_history_user_date\` ON \`user_view_history\``);
    await queryRunner.query(`DROP INDEX \`idx_view_history_doc_date\` ON \`user_view_history\``);
    await queryRunner.query(`DROP TABLE \`user_view_history\``);
    await queryRunner.query(`DROP INDEX \`idx_document_tags_tagid\` ON \`document_tags\``);
    await queryRunner.query(`DROP TABLE \`document_tags\``);
    await queryRunner.query(`DROP INDEX \`uq_tags_name_key\` ON \`tags\``);
    await queryRunner.query(`DROP TABLE \`tags\``);
    await queryRunner.query(`DROP INDEX \`idx_videos_owner_manager\` ON \`videos\``);
    await queryRunner.query(`DROP INDEX \`uq_videos_guid\` ON \`videos\``);
    await queryRunner.query(`DROP TABLE \`videos\``);
    await queryRunner.query(`DROP INDEX \`idx_media_usage_imageid\` ON \`media_usage\``);
    await queryRunner.query(`DROP TABLE \`media_usage\``);
    await queryRunner.query(`DROP INDEX \`idx_images_owner_manager\` ON \`images\``);
    await queryRunner.query(`DROP INDEX \`idx_images_in_manager\` ON \`images\``);
    await queryRunner.query(`DROP INDEX \`uq_images_guid\` ON \`images\``);
    await queryRunner.query(`DROP TABLE \`images\``);
    await queryRunner.query(`DROP INDEX \`idx_documents_owner_manager\` ON \`documents\``);
    await queryRunner.query(`DROP INDEX \`uq_documents_guid\` ON \`documents\``);
    await queryRunner.query(`DROP TABLE \`documents\``);
    await queryRunner.query(`DROP INDEX \`idx_team_members_userid\` ON \`team_members\``);
    await queryRunner.query(`DROP TABLE \`team_members\``);
    await queryRunner.query(`DROP INDEX \`uq_teams_name\` ON \`teams\``);
    await queryRunner.query(`DROP TABLE \`teams\``);
    await queryRunner.query(`DROP INDEX \`idx_user_badges_badgeid\` ON \`user_badges\``);
    await queryRunner.query(`DROP TABLE \`user_badges\``);
    await queryRunner.query(`DROP INDEX \`uq_reputation_awards\` ON \`reputation_awards\``);
    await queryRunner.query(`DROP TABLE \`reputation_awards\``);
    await queryRunner.query(`DROP INDEX \`uq_auth_tokens_hash\` ON \`auth_tokens\``);
    await queryRunner.query(`DROP INDEX \`idx_auth_tokens_userid\` ON \`auth_tokens\``);
    await queryRunner.query(`DROP TABLE \`auth_tokens\``);
    await queryRunner.query(`DROP INDEX \`idx_comments_context\` ON \`comments\``);
    await queryRunner.query(`DROP INDEX \`idx_comments_parentid\` ON \`comments\``);
    await queryRunner.query(`DROP INDEX \`idx_comments_modified_date\` ON \`comments\``);
    await queryRunner.query(`DROP TABLE \`comments\``);
    await queryRunner.query(`DROP INDEX \`idx_users_created_by\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`uq_users_employee_id\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`uq_users_sso_userid\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`idx_users_join_date\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`uq_users_unique_username\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`idx_users_username\` ON \`users\``);
    await queryRunner.query(`DROP INDEX \`uq_users_email\` ON \`users\``);
    await queryRunner.query(`DROP TABLE \`users\``);
    await queryRunner.query(`DROP INDEX \`idx_guide_favorites_user\` ON \`guide_favorites\``);
    await queryRunner.query(`DROP TABLE \`guide_favorites\``);
    await queryRunner.query(`DROP INDEX \`idx_guide_completions_user\` ON \`guide_completions\``);
    await queryRunner.query(`DROP TABLE \`guide_completions\``);
    await queryRunner.query(`DROP INDEX \`idx_guide_team_grants_team\` ON \`guide_team_grants\``);
    await queryRunner.query(`DROP TABLE \`guide_team_grants\``);
    await queryRunner.query(`DROP INDEX \`idx_guide_user_grants_user\` ON \`guide_user_grants\``);
    await queryRunner.query(`DROP TABLE \`guide_user_grants\``);
    await queryRunner.query(`DROP INDEX \`idx_guide_step_revisions_step\` ON \`guide_step_revisions\``);
    await queryRunner.query(`DROP TABLE \`guide_step_revisions\``);
    await queryRunner.query(`DROP INDEX \`idx_guide_steps_guide\` ON \`guide_steps\``);
    await queryRunner.query(`DROP TABLE \`guide_steps\``);
    await queryRunner.query(`DROP TABLE \`guide_translations\``);
    await queryRunner.query(`DROP INDEX \`idx_guide_revisions_guide_lang\` ON \`guide_revisions\``);
    await queryRunner.query(`DROP INDEX \`idx_guide_revisions_user\` ON \`guide_revisions\``);
    await queryRunner.query(`DROP TABLE \`guide_revisions\``);
    await queryRunner.query(`DROP INDEX \`idx_guides_public_deleted\` ON \`guides\``);
    await queryRunner.query(`DROP INDEX \`idx_guides_author\` ON \`guides\``);
    await queryRunner.query(`DROP INDEX \`idx_guides_modified\` ON \`guides\``);
    await queryRunner.query(`DROP TABLE \`guides\``);
  }
}
