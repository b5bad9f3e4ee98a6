import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The search index: `search_documents` (one row per document and language) and the FTS5 table
 * `search_fts` over its title and body (rowid = search_documents.id; accents folded, case-insensitive).
 * It fills from guide and wiki events (and `npm run search:reindex`).
 */
export class Search1795477000000 implements MigrationInterface {
  name = 'Search1795477000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "search_documents" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "doctype" varchar(8) NOT NULL, "docid" integer NOT NULL, "langid" varchar(16) NOT NULL, "namespace" varchar(16) NOT NULL, "is_source" boolean NOT NULL DEFAULT (0), "title" varchar(600) NOT NULL, "body" text NOT NULL, "data" text NOT NULL, "modified_date" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_search_documents_doc" ON "search_documents" ("doctype", "docid", "langid") `,
    );
    await queryRunner.query(
      `CREATE VIRTUAL TABLE "search_fts" USING fts5("title", "body", tokenize = 'unicode61 remove_diacritics 2')`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "search_fts"`);
    await queryRunner.query(`DROP INDEX "uq_search_documents_doc"`);
    await queryRunner.query(`DROP TABLE "search_documents"`);
  }
}
