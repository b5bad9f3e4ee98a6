import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber, unixTimeColumn } from '../../../database/columns';

export const VERSION_STATUSES = ['draft', 'current', 'superseded'] as const;
export type VersionStatus = (typeof VERSION_STATUSES)[number];
export const STANDARDS = ['scorm12', 'scorm2004', 'cmi5', 'xapi'] as const;
export type TrainingStandard = (typeof STANDARDS)[number];
export const LAUNCH_METHODS = ['iframe', 'new_window'] as const;
export type LaunchMethod = (typeof LAUNCH_METHODS)[number];

/**
 * A version of a module's package. T2 creates a `draft` with an empty package (`package_sha256` null);
 * a completed import fills it; a `current` version never changes and becomes `superseded` when another
 * is published. Files live in `TRAINING_DIR/modules/{moduleid}/{versionid}/`.
 */
@Entity({ name: 'training_module_versions' })
@Index('idx_training_versions_module', ['moduleid', 'versionid'])
export class TrainingVersionEntity {
  @PrimaryGeneratedColumn({ name: 'versionid', type: 'int' })
  versionid: number;

  @Column({ name: 'moduleid', type: 'int' })
  moduleid: number;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: VersionStatus;

  @Column({ name: 'standard', type: 'varchar', length: 16, nullable: true })
  standard: TrainingStandard | null;

  @Column({ name: 'title', type: 'varchar', length: 255 })
  title: string;

  /** Set by T7 on a draft; becomes the module's description when the draft is published. */
  @Column({ name: 'description', type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'launch_path', type: 'varchar', length: 2048, nullable: true })
  launchPath: string | null;

  @Column({ name: 'launch_method', type: 'varchar', length: 16 })
  launchMethod: LaunchMethod;

  @Column({ name: 'mastery_score', type: 'int', nullable: true })
  masteryScore: number | null;

  /** cmi5 `moveOn` of the launched AU. */
  @Column({ name: 'move_on', type: 'varchar', length: 32, nullable: true })
  moveOn: string | null;

  @Column({ name: 'sco_count', type: 'int' })
  scoCount: number;

  @Column({ name: 'file_count', type: 'int' })
  fileCount: number;

  @Column({ name: 'package_bytes', type: 'bigint', transformer: bigintNumber })
  packageBytes: number;

  /** SHA-256 of the ZIP archive; null while the version has no package. */
  @Column({ name: 'package_sha256', type: 'varchar', length: 64, nullable: true })
  packageSha256: string | null;

  @Column({ name: 'created_date', ...unixTimeColumn() })
  createdDate: number;

  @Column({ name: 'published_date', ...unixTimeColumn({ nullable: true }) })
  publishedDate: number | null;
}
