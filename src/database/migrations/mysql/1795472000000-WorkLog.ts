import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkLog1795472000000 implements MigrationInterface {
  name = 'WorkLog1795472000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`step_forms\` (\`form_revisionid\` int NOT NULL AUTO_INCREMENT, \`guideid\` int NOT NULL, \`stepid\` int NOT NULL, \`signoff_teamid\` int NULL, \`removed\` tinyint NOT NULL DEFAULT 0, \`userid\` int NOT NULL, \`date\` bigint NOT NULL, INDEX \`idx_step_forms_guide\` (\`guideid\`, \`stepid\`, \`form_revisionid\`), PRIMARY KEY (\`form_revisionid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`step_form_fields\` (\`field_revisionid\` int NOT NULL AUTO_INCREMENT, \`form_revisionid\` int NOT NULL, \`guideid\` int NOT NULL, \`stepid\` int NOT NULL, \`orderby\` int NOT NULL, \`field_guid\` varchar(16) NOT NULL, \`label\` varchar(255) NOT NULL, \`field_type\` varchar(20) NOT NULL, \`required\` tinyint NOT NULL DEFAULT 0, \`placeholder\` varchar(255) NOT NULL DEFAULT '', \`textarea\` tinyint NOT NULL DEFAULT 0, \`options\` json NOT NULL, \`unit\` varchar(32) NULL, \`min_value\` double NULL, \`max_value\` double NULL, INDEX \`idx_step_form_fields_guid\` (\`field_guid\`, \`stepid\`), INDEX \`idx_step_form_fields_form\` (\`form_revisionid\`, \`orderby\`), PRIMARY KEY (\`field_revisionid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`work_log_entries\` (\`entryid\` int NOT NULL AUTO_INCREMENT, \`guideid\` int NOT NULL, \`userid\` int NOT NULL, \`workorderid\` varchar(255) NOT NULL, \`status\` varchar(16) NOT NULL, \`starttime\` bigint NOT NULL, \`endtime\` bigint NULL, \`guide_revisionid\` int NOT NULL, \`max_form_revisionid\` int NOT NULL, \`releaseid\` int NULL, \`release_version\` varchar(20) NULL, \`paused_seconds\` int NOT NULL DEFAULT '0', \`paused_at\` bigint NULL, \`current_stepid\` int NULL, \`timingid\` int NULL, \`write_count\` int NOT NULL DEFAULT '0', \`deleted\` tinyint NOT NULL DEFAULT 0, INDEX \`idx_work_log_entries_status\` (\`status\`, \`guideid\`), INDEX \`idx_work_log_entries_user\` (\`userid\`, \`entryid\`), INDEX \`idx_work_log_entries_guide\` (\`guideid\`, \`entryid\`), PRIMARY KEY (\`entryid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`work_log_timings\` (\`timingid\` int NOT NULL AUTO_INCREMENT, \`entryid\` int NOT NULL, \`stepid\` int NOT NULL, \`date_start\` bigint NOT NULL, \`date_end\` bigint NULL, INDEX \`idx_work_log_timings_entry\` (\`entryid\`, \`timingid\`), PRIMARY KEY (\`timingid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`work_log_data\` (\`dataid\` int NOT NULL AUTO_INCREMENT, \`entryid\` int NOT NULL, \`field_revisionid\` int NOT NULL, \`field_guid\` varchar(16) NOT NULL, \`stepid\` int NOT NULL, \`label\` varchar(255) NOT NULL, \`value\` text NOT NULL, \`userid\` int NOT NULL, \`date\` bigint NOT NULL, INDEX \`idx_work_log_data_entry\` (\`entryid\`, \`dataid\`), PRIMARY KEY (\`dataid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`work_log_signoffs\` (\`signoffid\` int NOT NULL AUTO_INCREMENT, \`entryid\` int NOT NULL, \`stepid\` int NOT NULL, \`teamid\` int NOT NULL, \`status\` varchar(16) NOT NULL, \`requested_by\` int NOT NULL, \`requested_date\` bigint NOT NULL, \`signer_userid\` int NULL, \`signatureid\` int NULL, \`date\` bigint NULL, INDEX \`idx_work_log_signoffs_status\` (\`status\`, \`signoffid\`), INDEX \`idx_work_log_signoffs_entry\` (\`entryid\`, \`stepid\`, \`status\`), PRIMARY KEY (\`signoffid\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_work_log_signoffs_entry\` ON \`work_log_signoffs\``);
    await queryRunner.query(`DROP INDEX \`idx_work_log_signoffs_status\` ON \`work_log_signoffs\``);
    await queryRunner.query(`DROP TABLE \`work_log_signoffs\``);
    await queryRunner.query(`DROP INDEX \`idx_work_log_data_entry\` ON \`work_log_data\``);
    await queryRunner.query(`DROP TABLE \`work_log_data\``);
    await queryRunner.query(`DROP INDEX \`idx_work_log_timings_entry\` ON \`work_log_timings\``);
    await queryRunner.query(`DROP TABLE \`work_log_timings\``);
    await queryRunner.query(`DROP INDEX \`idx_work_log_entries_guide\` ON \`work_log_entries\``);
    await queryRunner.query(`DROP INDEX \`idx_work_log_entries_user\` ON \`work_log_entries\``);
    await queryRunner.query(`DROP INDEX \`idx_work_log_entries_status\` ON \`work_log_entries\``);
    await queryRunner.query(`DROP TABLE \`work_log_entries\``);
    await queryRunner.query(`DROP INDEX \`idx_step_form_fields_form\` ON \`step_form_fields\``);
    await queryRunner.query(`DROP INDEX \`idx_step_form_fields_guid\` ON \`step_form_fields\``);
    await queryRunner.query(`DROP TABLE \`step_form_fields\``);
    await queryRunner.query(`DROP INDEX \`idx_step_forms_guide\` ON \`step_forms\``);
    await queryRunner.query(`DROP TABLE \`step_forms\``);
  }
}
