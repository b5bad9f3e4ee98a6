import { MigrationInterface, QueryRunner } from 'typeorm';
import { foldWikiTitles, unfoldWikiTitles } from '../fold-wiki-titles';

/**
 * Wiki titles compare case-insensitively: title hashes (and the category hashes of guides) become those of the
 * lower-cased title; wikis whose titles differ only by case from an older one are renamed (and logged).
 */
export class WikiTitleCase1795495000000 implements MigrationInterface {
  name = 'WikiTitleCase1795495000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await foldWikiTitles(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await unfoldWikiTitles(queryRunner);
  }
}
