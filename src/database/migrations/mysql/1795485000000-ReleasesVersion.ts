import { MigrationInterface, QueryRunner } from 'typeorm';
import { newVersionToken } from '../../../platform/versions/content-versions';

/** The `releases` row of `content_versions`: readers keep which release of a document is live under it. */
export class ReleasesVersion1795485000000 implements MigrationInterface {
  name = 'ReleasesVersion1795485000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('INSERT INTO `content_versions` (`name`, `token`) VALUES (?, ?)', [
      'releases',
      newVersionToken(),
    ]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM `content_versions` WHERE `name` = 'releases'");
  }
}
