import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

export const REGISTRATION_STATUSES = ['not_attempted', 'incomplete', 'completed', 'passed', 'failed'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];
/** How a result was set: by the player page (commit token), or through the API with the owner's token. */
export type ResultSource = 'player' | 'api';

/**
 * A learner's attempt at a module version (an extension of the API, docs/enterprise/training-modules.md). The player
 * commits to it; its status only moves forward. `preview` marks an Admin's launch of a draft or superseded version (not
 * counted in usage).
 */
@Entity({ name: 'training_registrations' })
@Index('idx_training_registrations_user', ['userid', 'moduleid', 'versionid'])
@Index('idx_training_registrations_module', ['moduleid', 'preview', 'status'])
export class TrainingRegistrationEntity {
  @PrimaryColumn({ name: 'registrationid', type: 'varchar', length: 36 })
  registrationid: string;

  @Column({ name: 'moduleid', type: 'int' })
  moduleid: number;

  @Column({ name: 'versionid', type: 'int' })
  versionid: number;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column({ name: 'preview', type: 'boolean' })
  preview: boolean;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: RegistrationStatus;

  @Column({ name: 'score_scaled', type: 'double', nullable: true })
  scoreScaled: number | null;

  @Column({ name: 'total_time_s', type: 'int' })
  totalTimeS: number;

  @Column({ name: 'location', type: 'varchar', length: 1000, nullable: true })
  location: string | null;

  @Column({ name: 'suspend_data', type: 'text', nullable: true })
  suspendData: string | null;

  @Column({ name: 'started_date', ...unixTimeColumn() })
  startedDate: number;

  @Column({ name: 'last_commit_date', ...unixTimeColumn({ nullable: true }) })
  lastCommitDate: number | null;

  @Column({ name: 'completed_date', ...unixTimeColumn({ nullable: true }) })
  completedDate: number | null;

  /** How the status or score was last set; null until a commit sets one. Not in the response (audit only). */
  @Column({ name: 'result_source', type: 'varchar', length: 8, nullable: true })
  resultSource: ResultSource | null;

  /** The user whose API token set it (`api`); null for the player. */
  @Column({ name: 'result_by', type: 'int', nullable: true })
  resultBy: number | null;
}
