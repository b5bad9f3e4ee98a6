import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The guide facts the wikis module needs (kept from `guide.changed` events, so the guides tables are
 * never queried): one row per public, non-deleted guide.
 */
@Entity({ name: 'wiki_category_guides' })
@Index('idx_wiki_category_guides_category', ['categoryHash'])
export class WikiCategoryGuideEntity {
  @PrimaryColumn({ name: 'guideid', type: 'int' })
  guideid: number;

  @Column({ name: 'category', type: 'varchar', length: 255 })
  category: string;

  /** titleHash of the category title (matches WikiEntity.titleHash whatever the case). */
  @Column({ name: 'category_hash', type: 'varchar', length: 64 })
  categoryHash: string;

  @Column({ name: 'title', type: 'varchar', length: 255 })
  title: string;
}
