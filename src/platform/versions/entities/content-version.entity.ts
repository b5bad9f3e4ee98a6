import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The version of a piece of derived content that readers keep in memory (the category tree): every write
 * that changes what it is built from sets a new random token in its own transaction, so a reader's copy is
 * current while the token it was built under is still the stored one.
 */
@Entity({ name: 'content_versions' })
export class ContentVersionEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'token', type: 'varchar', length: 32 })
  token: string;
}
