import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { TagEntity } from './tag.entity';

/** One tag on one guide or wiki. No foreign key to the document: tags sit below the content modules. */
@Entity({ name: 'document_tags' })
@Index('idx_document_tags_tagid', ['tagid'])
export class DocumentTagEntity {
  /** `guide` or `wiki`. */
  @PrimaryColumn({ name: 'doc_kind', type: 'varchar', length: 8 })
  docKind: string;

  @PrimaryColumn({ name: 'docid', type: 'int' })
  docid: number;

  @PrimaryColumn({ name: 'tagid', type: 'int' })
  tagid: number;

  @ManyToOne(() => TagEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tagid', foreignKeyConstraintName: 'fk_document_tags_tag' })
  tag?: TagEntity;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;
}
