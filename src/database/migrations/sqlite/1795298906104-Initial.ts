import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795298906104 implements MigrationInterface {
  name = 'Initial1795298906104';

  public async up(queryRunner: QueryRunner): Promise<void> {
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
      `CREATE TABLE "auth_tokens" ("tokenid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "userid" integer NOT NULL, "token_hash" varchar(64) NOT NULL, "app_id" varchar(255), "created_date" bigint NOT NULL, "last_used_date" bigint, "revoked_date" bigint)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_auth_tokens_userid" ON "auth_tokens" ("userid") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_auth_tokens_hash" ON "auth_tokens" ("token_hash") `);
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
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
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
    await queryRunner.query(`DROP INDEX "uq_auth_tokens_hash"`);
    await queryRunner.query(`DROP INDEX "idx_auth_tokens_userid"`);
    await queryRunner.query(`DROP TABLE "auth_tokens"`);
    await queryRunner.query(`DROP INDEX "idx_users_created_by"`);
    await queryRunner.query(`DROP INDEX "uq_users_employee_id"`);
    await queryRunner.query(`DROP INDEX "uq_users_sso_userid"`);
    await queryRunner.query(`DROP INDEX "idx_users_join_date"`);
    await queryRunner.query(`DROP INDEX "uq_users_unique_username"`);
    await queryRunner.query(`DROP INDEX "idx_users_username"`);
    await queryRunner.query(`DROP INDEX "uq_users_email"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
