import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/**
 * One revision of a step's form (docs/enterprise/work-log.md). Rows are only appended: work data keeps pointing at
 * old revisions. `removed` marks the revision that took the form away (or deleted its step), so "the
 * newest revision ≤ an entry's max_form_revisionid" answers the form in force when the entry started.
 */
@Entity({ name: 'step_forms' })
@Index('idx_step_forms_guide', ['guideid', 'stepid', 'formRevisionid'])
export class StepFormEntity {
  @PrimaryGeneratedColumn({ name: 'form_revisionid', type: 'int' })
  formRevisionid: number;

  @Column({ name: 'guideid', type: 'int' })
  guideid: number;

  @Column({ name: 'stepid', type: 'int' })
  stepid: number;

  @Column({ name: 'signoff_teamid', type: 'int', nullable: true })
  signoffTeamid: number | null;

  @Column({ name: 'removed', type: 'boolean', default: false })
  removed: boolean;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column(unixTimeColumn({ name: 'date' }))
  date: number;
}
