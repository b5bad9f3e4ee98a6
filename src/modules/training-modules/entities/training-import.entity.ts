import { Column, Entity, Index, PrimaryGeneratedColumn, type ValueTransformer } from 'typeorm';
import { bigintNumber, unixTimeColumn } from '../../../database/columns';

/** A JSON column whose entity value is the JSON text (the driver parses and writes the value itself). */
const jsonText: ValueTransformer = {
  to: (text: string | null | undefined) => (typeof text === 'string' ? (JSON.parse(text) as unknown) : text),
  from: (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value)),
};

export const IMPORT_STATUSES = [
  'created',
  'receiving',
  'validating',
  'extracting',
  'complete',
  'failed',
  'cancelled',
] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export type ImportSource = 'upload' | 'url';

/**
 * An import of a package into a module's draft (docs/enterprise/training-modules.md). `running_slot` is 1 while the
 * import is not terminal, so the unique index allows one running import per module even under races.
 */
@Entity({ name: 'training_imports' })
@Index('idx_training_imports_module', ['moduleid', 'importid'])
@Index('uq_training_imports_running', ['moduleid', 'runningSlot'], { unique: true })
export class TrainingImportEntity {
  @PrimaryGeneratedColumn({ name: 'importid', type: 'int' })
  importid: number;

  @Column({ name: 'moduleid', type: 'int' })
  moduleid: number;

  /** The draft version the package goes to. */
  @Column({ name: 'versionid', type: 'int' })
  versionid: number;

  @Column({ name: 'source', type: 'varchar', length: 8, nullable: true })
  source: ImportSource | null;

  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: ImportStatus;

  @Column({ name: 'running_slot', type: 'int', nullable: true })
  runningSlot: number | null;

  @Column({ name: 'percent', type: 'int' })
  percent: number;

  @Column({ name: 'bytes_done', type: 'bigint', transformer: bigintNumber })
  bytesDone: number;

  @Column({ name: 'bytes_total', type: 'bigint', transformer: bigintNumber, nullable: true })
  bytesTotal: number | null;

  /** JSON array of {code, message}. */
  @Column({ name: 'warnings_json', type: 'text' })
  warningsJson: string;

  @Column({ name: 'error_code', type: 'varchar', length: 32, nullable: true })
  errorCode: string | null;

  @Column({ name: 'error_message', type: 'varchar', length: 1000, nullable: true })
  errorMessage: string | null;

  @Column({ name: 'url', type: 'varchar', length: 2048, nullable: true })
  url: string | null;

  /**
   * JSON {manifest, files} once validated (T13). A `json` column (LONGTEXT on MariaDB): the file list of a
   * large package does not fit in a MySQL TEXT (64 KiB). The entity keeps the JSON text.
   */
  @Column({ name: 'preview_json', type: 'json', nullable: true, transformer: jsonText })
  previewJson: string | null;

  @Column({ name: 'userid', type: 'int' })
  userid: number;

  @Column({ name: 'created_date', ...unixTimeColumn() })
  createdDate: number;

  @Column({ name: 'finished_date', ...unixTimeColumn({ nullable: true }) })
  finishedDate: number | null;

  /** When the instance working the import last showed it is alive (every move, progress and 30 s). */
  @Column({ name: 'heartbeat_date', ...unixTimeColumn({ nullable: true }) })
  heartbeatDate: number | null;

  /** The instance that last worked on the import (`host:pid:random`), so that it is failed at once after a crash. */
  @Column({ name: 'owner_instance', type: 'varchar', length: 300, nullable: true })
  ownerInstance: string | null;
}
