import { MigrationInterface, QueryRunner } from 'typeorm';

export class Teams1795299204096 implements MigrationInterface {
  name = 'Teams1795299204096';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "teams" ("teamid" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(255) NOT NULL, "description" text NOT NULL, "created_by_userid" integer, "created_date" bigint NOT NULL)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_teams_name" ON "teams" ("name") `);
    await queryRunner.query(
      `CREATE TABLE "team_members" ("teamid" integer NOT NULL, "userid" integer NOT NULL, "joined_date" bigint NOT NULL, PRIMARY KEY ("teamid", "userid"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_team_members_userid" ON "team_members" ("userid") `);
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
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
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
    await queryRunner.query(`DROP INDEX "idx_team_members_userid"`);
    await queryRunner.query(`DROP TABLE "team_members"`);
    await queryRunner.query(`DROP INDEX "uq_teams_name"`);
    await queryRunner.query(`DROP TABLE "teams"`);
  }
}
