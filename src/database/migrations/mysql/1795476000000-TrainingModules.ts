import { MigrationInterface, QueryRunner } from 'typeorm';

export class TrainingModules1795476000000 implements MigrationInterface {
  name = 'TrainingModules1795476000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`training_modules\` (\`moduleid\` int NOT NULL AUTO_INCREMENT, \`title\` varchar(255) NOT NULL, \`description\` text NOT NULL, \`current_versionid\` int NULL, \`draft_versionid\` int NULL, \`created_date\` bigint NOT NULL, \`modified_date\` bigint NOT NULL, PRIMARY KEY (\`moduleid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`training_module_versions\` (\`versionid\` int NOT NULL AUTO_INCREMENT, \`moduleid\` int NOT NULL, \`status\` varchar(16) NOT NULL, \`standard\` varchar(16) NULL, \`title\` varchar(255) NOT NULL, \`description\` text NULL, \`launch_path\` varchar(2048) NULL, \`launch_method\` varchar(16) NOT NULL, \`mastery_score\` int NULL, \`move_on\` varchar(32) NULL, \`sco_count\` int NOT NULL, \`file_count\` int NOT NULL, \`package_bytes\` bigint NOT NULL, \`package_sha256\` varchar(64) NULL, \`created_date\` bigint NOT NULL, \`published_date\` bigint NULL, INDEX \`idx_training_versions_module\` (\`moduleid\`, \`versionid\`), PRIMARY KEY (\`versionid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`training_imports\` (\`importid\` int NOT NULL AUTO_INCREMENT, \`moduleid\` int NOT NULL, \`versionid\` int NOT NULL, \`source\` varchar(8) NULL, \`status\` varchar(16) NOT NULL, \`running_slot\` int NULL, \`percent\` int NOT NULL, \`bytes_done\` bigint NOT NULL, \`bytes_total\` bigint NULL, \`warnings_json\` text NOT NULL, \`error_code\` varchar(32) NULL, \`error_message\` varchar(1000) NULL, \`url\` varchar(2048) NULL, \`preview_json\` text NULL, \`userid\` int NOT NULL, \`created_date\` bigint NOT NULL, \`finished_date\` bigint NULL, UNIQUE INDEX \`uq_training_imports_running\` (\`moduleid\`, \`running_slot\`), INDEX \`idx_training_imports_module\` (\`moduleid\`, \`importid\`), PRIMARY KEY (\`importid\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`training_registrations\` (\`registrationid\` varchar(36) NOT NULL, \`moduleid\` int NOT NULL, \`versionid\` int NOT NULL, \`userid\` int NOT NULL, \`preview\` tinyint NOT NULL, \`status\` varchar(16) NOT NULL, \`score_scaled\` double NULL, \`total_time_s\` int NOT NULL, \`location\` varchar(1000) NULL, \`suspend_data\` text NULL, \`started_date\` bigint NOT NULL, \`last_commit_date\` bigint NULL, \`completed_date\` bigint NULL, INDEX \`idx_training_registrations_module\` (\`moduleid\`, \`preview\`, \`status\`), INDEX \`idx_training_registrations_user\` (\`userid\`, \`moduleid\`, \`versionid\`), PRIMARY KEY (\`registrationid\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_training_registrations_user\` ON \`training_registrations\``);
    await queryRunner.query(`DROP INDEX \`idx_training_registrations_module\` ON \`training_registrations\``);
    await queryRunner.query(`DROP TABLE \`training_registrations\``);
    await queryRunner.query(`DROP INDEX \`idx_training_imports_module\` ON \`training_imports\``);
    await queryRunner.query(`DROP INDEX \`uq_training_imports_running\` ON \`training_imports\``);
    await queryRunner.query(`DROP TABLE \`training_imports\``);
    await queryRunner.query(`DROP INDEX \`idx_training_versions_module\` ON \`training_module_versions\``);
    await queryRunner.query(`DROP TABLE \`training_module_versions\``);
    await queryRunner.query(`DROP TABLE \`training_modules\``);
  }
}
