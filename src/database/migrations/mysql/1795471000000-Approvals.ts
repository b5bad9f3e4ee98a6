import { MigrationInterface, QueryRunner } from 'typeorm';

export class Approvals1795471000000 implements MigrationInterface {
  name = 'Approvals1795471000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`approval_processes\` (\`approval_processid\` int NOT NULL AUTO_INCREMENT, \`current_revisionid\` int NOT NULL, \`name\` varchar(255) NOT NULL, \`site_default\` tinyint NOT NULL DEFAULT 0, \`created_date\` bigint NOT NULL, \`modified_date\` bigint NOT NULL, INDEX \`idx_approval_processes_default\` (\`site_default\`), PRIMARY KEY (\`approval_processid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`approval_process_revisions\` (\`approval_process_revisionid\` int NOT NULL AUTO_INCREMENT, \`approval_processid\` int NOT NULL, \`name\` varchar(255) NOT NULL, \`created_date\` bigint NOT NULL, INDEX \`idx_approval_process_revisions_process\` (\`approval_processid\`, \`approval_process_revisionid\`), PRIMARY KEY (\`approval_process_revisionid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`approval_process_stages\` (\`approval_process_stageid\` int NOT NULL AUTO_INCREMENT, \`approval_process_revisionid\` int NOT NULL, \`orderby\` int NOT NULL, \`userid\` int NULL, \`teamid\` int NULL, \`required_signatures\` int NOT NULL, UNIQUE INDEX \`idx_approval_process_stages_revision\` (\`approval_process_revisionid\`, \`orderby\`), PRIMARY KEY (\`approval_process_stageid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`approval_assignments\` (\`doctype\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`slot\` varchar(8) NOT NULL, \`approval_processid\` int NOT NULL, INDEX \`idx_approval_assignments_process\` (\`approval_processid\`), PRIMARY KEY (\`doctype\`, \`docid\`, \`slot\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`approval_requests\` (\`approval_requestid\` int NOT NULL AUTO_INCREMENT, \`status\` varchar(16) NOT NULL, \`releaseid\` int NOT NULL, \`doctype\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, \`revisionid\` int NOT NULL, \`document_title\` varchar(255) NOT NULL, \`requested_by\` int NOT NULL, \`approval_processid\` int NOT NULL, \`approval_process_revisionid\` int NOT NULL, \`process_name\` varchar(255) NOT NULL, \`current_stage\` int NULL, \`stage_count\` int NOT NULL, \`init_date\` bigint NOT NULL, \`end_date\` bigint NULL, INDEX \`idx_approval_requests_document\` (\`doctype\`, \`docid\`, \`approval_requestid\`), INDEX \`idx_approval_requests_release\` (\`releaseid\`), INDEX \`idx_approval_requests_requester\` (\`requested_by\`, \`approval_requestid\`), INDEX \`idx_approval_requests_status\` (\`status\`, \`approval_requestid\`), PRIMARY KEY (\`approval_requestid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`approval_request_stages\` (\`approval_request_stageid\` int NOT NULL AUTO_INCREMENT, \`approval_requestid\` int NOT NULL, \`orderby\` int NOT NULL, \`status\` varchar(16) NOT NULL, \`userid\` int NULL, \`teamid\` int NULL, \`required_signatures\` int NOT NULL, \`init_date\` bigint NULL, \`end_date\` bigint NULL, INDEX \`idx_approval_request_stages_team\` (\`teamid\`, \`approval_requestid\`), INDEX \`idx_approval_request_stages_user\` (\`userid\`, \`approval_requestid\`), UNIQUE INDEX \`idx_approval_request_stages_request\` (\`approval_requestid\`, \`orderby\`), PRIMARY KEY (\`approval_request_stageid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`approval_stage_signatures\` (\`approval_requestid\` int NOT NULL, \`orderby\` int NOT NULL, \`userid\` int NOT NULL, \`signatureid\` int NOT NULL, \`decision\` varchar(8) NOT NULL, UNIQUE INDEX \`idx_approval_stage_signatures_signature\` (\`signatureid\`), PRIMARY KEY (\`approval_requestid\`, \`orderby\`, \`userid\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_approval_stage_signatures_signature\` ON \`approval_stage_signatures\``);
    await queryRunner.query(`DROP TABLE \`approval_stage_signatures\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_request_stages_request\` ON \`approval_request_stages\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_request_stages_user\` ON \`approval_request_stages\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_request_stages_team\` ON \`approval_request_stages\``);
    await queryRunner.query(`DROP TABLE \`approval_request_stages\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_requests_status\` ON \`approval_requests\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_requests_requester\` ON \`approval_requests\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_requests_release\` ON \`approval_requests\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_requests_document\` ON \`approval_requests\``);
    await queryRunner.query(`DROP TABLE \`approval_requests\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_assignments_process\` ON \`approval_assignments\``);
    await queryRunner.query(`DROP TABLE \`approval_assignments\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_process_stages_revision\` ON \`approval_process_stages\``);
    await queryRunner.query(`DROP TABLE \`approval_process_stages\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_process_revisions_process\` ON \`approval_process_revisions\``);
    await queryRunner.query(`DROP TABLE \`approval_process_revisions\``);
    await queryRunner.query(`DROP INDEX \`idx_approval_processes_default\` ON \`approval_processes\``);
    await queryRunner.query(`DROP TABLE \`approval_processes\``);
  }
}
