import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { UserEntity } from '../../users/entities/user.entity';

@Entity({ name: 'comments' })
@Index('idx_comments_context', ['context', 'contextid'])
@Index('idx_comments_parentid', ['parentid'])
export class CommentEntity {
  @PrimaryGeneratedColumn({ name: 'commentid', type: 'int' })
  commentid: number;

  /** guide, step… (the context types registered by content modules). */
  @Column({ name: 'context', type: 'varchar', length: 16 })
  context: string;

  @Column({ name: 'contextid', type: 'int' })
  contextid: number;

  /** The top-level comment this replies to; replies are one level deep. */
  @Column({ name: 'parentid', type: 'int', nullable: true })
  parentid: number | null;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userid', foreignKeyConstraintName: 'fk_comments_user' })
  user?: UserEntity;

  @Column({ name: 'title', type: 'varchar', length: 255, default: '' })
  title: string;

  @Column({ name: 'text_raw', type: 'text' })
  textRaw: string;

  /** public or deleted. */
  @Column({ name: 'status', type: 'varchar', length: 16, default: 'public' })
  status: string;

  @Column({ name: 'langid', type: 'varchar', length: 16, nullable: true })
  langid: string | null;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;

  /** 0 until first edited. */
  @Index('idx_comments_modified_date')
  @Column(unixTimeColumn({ name: 'modified_date', default: 0 }))
  modifiedDate: number;

  /** Time of the newest reply, 0 without replies. */
  @Column(unixTimeColumn({ name: 'replied_date', default: 0 }))
  repliedDate: number;
}
