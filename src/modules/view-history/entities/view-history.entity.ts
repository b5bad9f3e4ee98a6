import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { UserEntity } from '../../users/entities/user.entity';

/** One read of a guide or wiki by an authenticated user. */
@Entity({ name: 'user_view_history' })
@Index('idx_view_history_user_date', ['userid', 'date'])
@Index('idx_view_history_doc_date', ['docType', 'docid', 'date'])
export class ViewHistoryEntity {
  @PrimaryGeneratedColumn({ name: 'historyid', type: 'int' })
  historyid: number;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userid', foreignKeyConstraintName: 'fk_view_history_user' })
  user?: UserEntity;

  /** GUIDE or WIKI. */
  @Column({ name: 'doc_type', type: 'varchar', length: 8 })
  docType: string;

  /** guideid, or the wiki's wikiid. */
  @Column({ name: 'docid', type: 'int' })
  docid: number;

  @Column(unixTimeColumn({ name: 'date' }))
  date: number;
}
