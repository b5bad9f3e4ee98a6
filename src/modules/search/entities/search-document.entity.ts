import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/**
 * One language version of a guide or wiki as the search index holds it: its patrolled text only (what
 * anyone allowed to read the document may read). Who may read it is decided at query time (the document
 * registry's accessSql), never stored here.
 *
 * Engines: on MySQL/MariaDB the FULLTEXT indexes `ft_search_title` (title) and `ft_search_text` (title,
 * body) are created by the migration (TypeORM does not manage them: synchronize false); on SQLite the
 * FTS5 table `search_fts` (rowid = id) holds the same title and body.
 */
@Entity({ name: 'search_documents' })
@Index('uq_search_documents_doc', ['doctype', 'docid', 'langid'], { unique: true })
@Index('ft_search_title', { synchronize: false })
@Index('ft_search_text', { synchronize: false })
export class SearchDocumentEntity {
  @PrimaryGeneratedColumn({ name: 'id', type: 'int' })
  id: number;

  /** GUIDE or WIKI. */
  @Column({ name: 'doctype', type: 'varchar', length: 8 })
  doctype: string;

  @Column({ name: 'docid', type: 'int' })
  docid: number;

  @Column({ name: 'langid', type: 'varchar', length: 16 })
  langid: string;

  /** GUIDE for guides; the wiki's namespace (CATEGORY, ITEM, INFO, …) for wikis. */
  @Column({ name: 'namespace', type: 'varchar', length: 16 })
  namespace: string;

  /** Whether this is the document's source language. */
  @Column({ name: 'is_source', type: 'boolean', default: false })
  isSource: boolean;

  /** Guide title; wiki display title (and title when it differs). */
  @Column({ name: 'title', type: 'varchar', length: 600 })
  title: string;

  /** Plain text of the rest (summary, introduction, steps, conclusion, parts, tools, category; wiki contents). */
  @Column({ name: 'body', type: 'text' })
  body: string;

  /** JSON: what a result shows without another query (wikis: the light object). */
  @Column({ name: 'data', type: 'text' })
  data: string;

  @Column(unixTimeColumn({ name: 'modified_date' }))
  modifiedDate: number;
}
