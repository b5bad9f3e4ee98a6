import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/** A quiz attached to a guide or a wiki. */
@Entity({ name: 'quiz_associations' })
@Index('uq_quiz_associations', ['doctype', 'docid', 'quizid'], { unique: true })
@Index('idx_quiz_associations_quiz', ['quizid'])
export class QuizAssociationEntity {
  @PrimaryGeneratedColumn({ name: 'associationid', type: 'int' })
  associationid: number;

  @Column({ name: 'quizid', type: 'int' })
  quizid: number;

  @Column({ name: 'doctype', type: 'varchar', length: 8 })
  doctype: string;

  @Column({ name: 'docid', type: 'int' })
  docid: number;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;
}
