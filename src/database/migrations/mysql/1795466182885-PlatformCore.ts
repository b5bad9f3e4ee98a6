import { MigrationInterface, QueryRunner } from 'typeorm';
import { addAppendOnlyTriggers, dropAppendOnlyTriggers } from '../append-only-triggers';

export class PlatformCore1795466182885 implements MigrationInterface {
  name = 'PlatformCore1795466182885';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`course_stages\` (\`course_stageid\` int NOT NULL AUTO_INCREMENT, \`course_wikiid\` int NOT NULL, \`orderby\` int NOT NULL, \`doctype\` varchar(8) NULL, \`docid\` int NULL, \`quizid\` int NULL, \`passing_score\` int NULL, \`moduleid\` int NULL, INDEX \`idx_course_stages_module\` (\`moduleid\`), INDEX \`idx_course_stages_quiz\` (\`quizid\`), INDEX \`idx_course_stages_course\` (\`course_wikiid\`, \`orderby\`), PRIMARY KEY (\`course_stageid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`domain_events\` (\`eventid\` int NOT NULL AUTO_INCREMENT, \`name\` varchar(100) NOT NULL, \`entity_type\` varchar(50) NOT NULL, \`entity_id\` varchar(100) NOT NULL, \`payload\` json NOT NULL, \`request_id\` varchar(200) NULL, \`occurred_at\` bigint NOT NULL, \`dispatched_at\` bigint NULL, \`attempts\` int NOT NULL DEFAULT '0', \`next_attempt_at\` bigint NOT NULL DEFAULT '0', \`last_error\` varchar(1000) NULL, \`failed_at\` bigint NULL, INDEX \`idx_domain_events_entity\` (\`entity_type\`, \`entity_id\`, \`eventid\`), INDEX \`idx_domain_events_pending\` (\`dispatched_at\`, \`eventid\`), PRIMARY KEY (\`eventid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`event_deliveries\` (\`subscriber\` varchar(100) NOT NULL, \`eventid\` int NOT NULL, \`delivered_at\` bigint NOT NULL, PRIMARY KEY (\`subscriber\`, \`eventid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`jobs\` (\`jobid\` int NOT NULL AUTO_INCREMENT, \`name\` varchar(100) NOT NULL, \`payload\` json NOT NULL, \`status\` varchar(16) NOT NULL, \`run_at\` bigint NOT NULL, \`attempts\` int NOT NULL DEFAULT '0', \`max_attempts\` int NOT NULL, \`unique_key\` varchar(200) NULL, \`locked_by\` varchar(100) NULL, \`locked_until\` bigint NULL, \`last_error\` varchar(1000) NULL, \`created_at\` bigint NOT NULL, \`finished_at\` bigint NULL, UNIQUE INDEX \`uq_jobs_unique_key\` (\`unique_key\`), INDEX \`idx_jobs_due\` (\`status\`, \`run_at\`), PRIMARY KEY (\`jobid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`scheduler_locks\` (\`name\` varchar(100) NOT NULL, \`locked_by\` varchar(100) NULL, \`locked_until\` bigint NOT NULL, \`last_run_at\` bigint NULL, PRIMARY KEY (\`name\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`audit_events\` (\`auditid\` int NOT NULL AUTO_INCREMENT, \`occurred_at\` bigint NOT NULL, \`actor_userid\` int NULL, \`actor_name\` varchar(255) NULL, \`action\` varchar(100) NOT NULL, \`entity_type\` varchar(50) NOT NULL, \`entity_id\` varchar(100) NOT NULL, \`before_json\` json NULL, \`after_json\` json NULL, \`reason\` varchar(2000) NULL, \`request_id\` varchar(200) NULL, \`ip\` varchar(64) NULL, \`user_agent\` varchar(500) NULL, \`prev_hash\` varchar(64) NULL, \`hash\` varchar(64) NOT NULL, INDEX \`idx_audit_time\` (\`occurred_at\`), INDEX \`idx_audit_action\` (\`action\`, \`auditid\`), INDEX \`idx_audit_actor\` (\`actor_userid\`, \`auditid\`), INDEX \`idx_audit_entity\` (\`entity_type\`, \`entity_id\`, \`auditid\`), PRIMARY KEY (\`auditid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`audit_chain_heads\` (\`entity_type\` varchar(50) NOT NULL, \`entity_id\` varchar(100) NOT NULL, \`last_auditid\` int NOT NULL, \`last_hash\` varchar(64) NOT NULL, PRIMARY KEY (\`entity_type\`, \`entity_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`signatures\` (\`signatureid\` int NOT NULL AUTO_INCREMENT, \`subject_type\` varchar(50) NOT NULL, \`subject_id\` varchar(100) NOT NULL, \`userid\` int NOT NULL, \`printed_name\` varchar(255) NOT NULL, \`meaning\` varchar(20) NOT NULL, \`note\` varchar(5000) NOT NULL DEFAULT '', \`signed_at\` bigint NOT NULL, \`auth_method\` varchar(20) NOT NULL, \`record_hash\` varchar(64) NOT NULL, \`request_id\` varchar(200) NULL, INDEX \`idx_signatures_user\` (\`userid\`, \`signatureid\`), INDEX \`idx_signatures_subject\` (\`subject_type\`, \`subject_id\`), PRIMARY KEY (\`signatureid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`signature_failures\` (\`failureid\` int NOT NULL AUTO_INCREMENT, \`userid\` int NOT NULL, \`failed_at\` bigint NOT NULL, INDEX \`idx_signature_failures_user\` (\`userid\`, \`failed_at\`), PRIMARY KEY (\`failureid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`signature_lockouts\` (\`userid\` int NOT NULL, \`locked_until\` bigint NOT NULL, PRIMARY KEY (\`userid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`sign_codes\` (\`codeid\` int NOT NULL AUTO_INCREMENT, \`userid\` int NOT NULL, \`subject_type\` varchar(50) NOT NULL, \`subject_id\` varchar(100) NOT NULL, \`stage\` varchar(50) NOT NULL DEFAULT '', \`code_hash\` varchar(64) NOT NULL, \`created_at\` bigint NOT NULL, \`expires_at\` bigint NOT NULL, \`spent_at\` bigint NULL, INDEX \`idx_sign_codes_binding\` (\`userid\`, \`subject_type\`, \`subject_id\`, \`created_at\`), PRIMARY KEY (\`codeid\`)) ENGINE=InnoDB`,
    );
    await addAppendOnlyTriggers(queryRunner, 'mysql', 'audit_events');
    await addAppendOnlyTriggers(queryRunner, 'mysql', 'signatures');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropAppendOnlyTriggers(queryRunner, 'mysql', 'signatures');
    await dropAppendOnlyTriggers(queryRunner, 'mysql', 'audit_events');
    await queryRunner.query(`DROP INDEX \`idx_sign_codes_binding\` ON \`sign_codes\``);
    await queryRunner.query(`DROP TABLE \`sign_codes\``);
    await queryRunner.query(`DROP TABLE \`signature_lockouts\``);
    await queryRunner.query(`DROP INDEX \`idx_signature_failures_user\` ON \`signature_failures\``);
    await queryRunner.query(`DROP TABLE \`signature_failures\``);
    await queryRunner.query(`DROP INDEX \`idx_signatures_subject\` ON \`signatures\``);
    await queryRunner.query(`DROP INDEX \`idx_signatures_user\` ON \`signatures\``);
    await queryRunner.query(`DROP TABLE \`signatures\``);
    await queryRunner.query(`DROP TABLE \`audit_chain_heads\``);
    await queryRunner.query(`DROP INDEX \`idx_audit_entity\` ON \`audit_events\``);
    await queryRunner.query(`DROP INDEX \`idx_audit_actor\` ON \`audit_events\``);
    await queryRunner.query(`DROP INDEX \`idx_audit_action\` ON \`audit_events\``);
    await queryRunner.query(`DROP INDEX \`idx_audit_time\` ON \`audit_events\``);
    await queryRunner.query(`DROP TABLE \`audit_events\``);
    await queryRunner.query(`DROP TABLE \`scheduler_locks\``);
    await queryRunner.query(`DROP INDEX \`idx_jobs_due\` ON \`jobs\``);
    await queryRunner.query(`DROP INDEX \`uq_jobs_unique_key\` ON \`jobs\``);
    await queryRunner.query(`DROP TABLE \`jobs\``);
    await queryRunner.query(`DROP TABLE \`event_deliveries\``);
    await queryRunner.query(`DROP INDEX \`idx_domain_events_pending\` ON \`domain_events\``);
    await queryRunner.query(`DROP INDEX \`idx_domain_events_entity\` ON \`domain_events\``);
    await queryRunner.query(`DROP TABLE \`domain_events\``);
    await queryRunner.query(`DROP INDEX \`idx_course_stages_course\` ON \`course_stages\``);
    await queryRunner.query(`DROP INDEX \`idx_course_stages_quiz\` ON \`course_stages\``);
    await queryRunner.query(`DROP INDEX \`idx_course_stages_module\` ON \`course_stages\``);
    await queryRunner.query(`DROP TABLE \`course_stages\``);
  }
}
