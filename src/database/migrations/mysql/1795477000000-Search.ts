import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The search index: `search_documents` (one row per document and language) with InnoDB FULLTEXT indexes
 * on the title and on title + body (boolean-mode searches; the collation folds case and accents).
 * It fills from guide and wiki events (and `npm run search:reindex`).
 */
export class Search1795477000000 implements MigrationInterface {
  name = 'Search1795477000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`search_documents\` (\`id\` int NOT NULL AUTO_INCREMENT, \`doctype\` varchar(8) NOT NULL, \`docid\` int NOT NULL, \`langid\` varchar(16) NOT NULL, \`namespace\` varchar(16) NOT NULL, \`is_source\` tinyint NOT NULL DEFAULT 0, \`title\` varchar(600) NOT NULL, \`body\` text NOT NULL, \`data\` text NOT NULL, \`modified_date\` bigint NOT NULL, UNIQUE INDEX \`uq_search_documents_doc\` (\`doctype\`, \`docid\`, \`langid\`), FULLTEXT INDEX \`ft_search_title\` (\`title\`), FULLTEXT INDEX \`ft_search_text\` (\`title\`, \`body\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`search_documents\``);
  }
}
