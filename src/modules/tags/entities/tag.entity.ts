import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/** A tag name, stored as first written (case-preserving) and matched case-insensitively through `nameKey`. */
@Entity({ name: 'tags' })
export class TagEntity {
  @PrimaryGeneratedColumn({ name: 'tagid', type: 'int' })
  tagid: number;

  @Column({ name: 'name', type: 'varchar', length: 32 })
  name: string;

  /**
   * SHA-256 (hex) of the lower-cased name: unique on both dialects without depending on a collation
   * (MySQL's *_ci collations would also fold accents, merging distinct tags).
   */
  @Index('uq_tags_name_key', { unique: true })
  @Column({ name: 'name_key', type: 'varchar', length: 64 })
  nameKey: string;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;
}
