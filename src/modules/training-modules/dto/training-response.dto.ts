import { ApiProperty } from '@nestjs/swagger';
import { IMPORT_STATUSES, type ImportSource, type ImportStatus } from '../entities/training-import.entity';
import { REGISTRATION_STATUSES, type RegistrationStatus } from '../entities/training-registration.entity';
import {
  LAUNCH_METHODS,
  STANDARDS,
  VERSION_STATUSES,
  type LaunchMethod,
  type TrainingStandard,
  type VersionStatus,
} from '../entities/training-version.entity';

/** A version of a module's package (docs/enterprise/training-modules.md). */
export class TrainingVersionDto {
  versionid: number;

  @ApiProperty({ enum: VERSION_STATUSES })
  status: VersionStatus;

  /** null until a package is imported. */
  @ApiProperty({ enum: STANDARDS, nullable: true })
  standard: TrainingStandard | null;

  title: string;

  /** The file the player frames, relative to the package root (or an external cmi5 AU's URL). */
  @ApiProperty({ type: 'string', nullable: true, example: 'index.html' })
  launch_path: string | null;

  @ApiProperty({ enum: LAUNCH_METHODS })
  launch_method: LaunchMethod;

  /** 0-100, or null. */
  @ApiProperty({ type: 'integer', nullable: true })
  mastery_score: number | null;

  sco_count: number;

  file_count: number;

  /** Size of the ZIP archive in bytes. */
  package_bytes: number;

  /** SHA-256 (hex) of the ZIP archive; null while the version has no package. */
  @ApiProperty({ type: 'string', nullable: true })
  package_sha256: string | null;

  created_date: number;

  @ApiProperty({ type: 'integer', nullable: true })
  published_date: number | null;
}

/** An external training module (docs/enterprise/training-modules.md). */
export class TrainingModuleDto {
  moduleid: number;

  title: string;

  description: string;

  @ApiProperty({ type: TrainingVersionDto, nullable: true })
  current: TrainingVersionDto | null;

  /** Admins only (null for others). */
  @ApiProperty({ type: TrainingVersionDto, nullable: true })
  draft: TrainingVersionDto | null;

  created_date: number;

  modified_date: number;
}

export class ImportProgressDto {
  @ApiProperty({ enum: IMPORT_STATUSES })
  stage: ImportStatus;

  /** 0-100: receiving 0-60, validating 60-70, extracting 70-100. */
  percent: number;

  bytes_done: number;

  /** Known once the size is known (Content-Length, or the whole body received). */
  @ApiProperty({ type: 'integer', nullable: true })
  bytes_total: number | null;
}

export class ImportMessageDto {
  @ApiProperty({ example: 'MULTI_SCO' })
  code: string;

  message: string;
}

/** An import of a package into a module's draft (docs/enterprise/training-modules.md). */
export class TrainingImportDto {
  importid: number;

  moduleid: number;

  @ApiProperty({ enum: ['upload', 'url'], nullable: true })
  source: ImportSource | null;

  @ApiProperty({ enum: IMPORT_STATUSES })
  status: ImportStatus;

  progress: ImportProgressDto;

  /** What the package has that the player ignores: `MULTI_SCO`, `SEQUENCING_IGNORED`, `EXTERNAL_AU`. */
  @ApiProperty({ type: [ImportMessageDto] })
  warnings: ImportMessageDto[];

  /**
   * Why the import failed; null otherwise. The package: `NOT_A_ZIP`; `ZIP_UNSAFE_PATH` (an absolute name, `..`,
   * NUL, a name over 512 bytes, a symlink, or two entries on one path: a duplicate, `./a` beside `a`, a file
   * `a` beside `a/b`); `ZIP_ENCRYPTED`; `ZIP_TOO_MANY_ENTRIES` (over 10,000); `ZIP_TOO_LARGE` (over 2 GiB
   * inflated, or over TRAINING_UPLOAD_LIMIT); `ZIP_BOMB`; `MANIFEST_NOT_AT_ROOT`; `NO_MANIFEST`;
   * `UNSUPPORTED_STANDARD`; `MANIFEST_INVALID`; `TOO_MANY_SCOS` (over 1,000 SCORM SCOs or cmi5 AUs);
   * `LAUNCH_FILE_MISSING` (the launch file is not in the package, or a launch path is not content: a SCORM or
   * xAPI launch file must be a file of the package, a cmi5 AU a file or an http(s) URL; any other scheme such
   * as `javascript:` or `data:` is refused). The import: `URL_REFUSED`, `DOWNLOAD_FAILED` (also a download
   * slower than TRAINING_DOWNLOAD_MIN_RATE over TRAINING_DOWNLOAD_RATE_WINDOW), `UPLOAD_FAILED`, `INTERRUPTED`
   * (its instance stopped), `DRAFT_GONE`, `IMPORT_FAILED`.
   */
  @ApiProperty({ type: ImportMessageDto, nullable: true })
  error: ImportMessageDto | null;

  /** The draft version that received the package, once complete. */
  @ApiProperty({ type: 'integer', nullable: true })
  versionid: number | null;

  created_date: number;

  @ApiProperty({ type: 'integer', nullable: true })
  finished_date: number | null;
}

export class PackageScoDto {
  identifier: string;
  title: string;
  href: string;
}

export class PackageManifestDto {
  @ApiProperty({ type: 'string', nullable: true })
  identifier: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  title: string | null;

  @ApiProperty({ enum: STANDARDS })
  standard: TrainingStandard;

  @ApiProperty({ type: 'string', nullable: true })
  schemaversion: string | null;

  @ApiProperty({ type: [PackageScoDto] })
  scos: PackageScoDto[];

  launch_path: string;
}

export class PackageFileDto {
  path: string;
  bytes: number;
}

/** T13: what a completed import brought, and a signed URL to try it. */
export class ImportPreviewDto {
  import: TrainingImportDto;

  manifest: PackageManifestDto;

  @ApiProperty({ type: [PackageFileDto] })
  files: PackageFileDto[];

  /** The player page on the draft (an Admin preview; usage does not count it). */
  preview_launch_url: string;
}

export class PlayerResumeDto {
  @ApiProperty({ type: 'string', nullable: true })
  location: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  suspend_data: string | null;
}

export class PlayerRuntimeDto {
  @ApiProperty({ enum: ['API', 'API_1484_11', 'cmi5', 'xapi'] })
  api: 'API' | 'API_1484_11' | 'cmi5' | 'xapi';

  /** PUT here with `X-Registration-Token: <commit_token>`. */
  commit_url: string;

  commit_token: string;

  @ApiProperty({ type: PlayerResumeDto, nullable: true })
  resume: PlayerResumeDto | null;
}

/** T4: how to open a module. */
export class PlayerLaunchDto {
  moduleid: number;

  versionid: number;

  @ApiProperty({ enum: STANDARDS })
  standard: TrainingStandard;

  registrationid: string;

  /** The service's player page (absolute, signed; valid 4 h). */
  launch_url: string;

  @ApiProperty({ enum: LAUNCH_METHODS })
  launch_method: LaunchMethod;

  expires_date: number;

  runtime: PlayerRuntimeDto;
}

export class UsageCourseDto {
  course_wikiid: number;
  course_title: string;
  course_stageid: number;
}

export class UsageRegistrationsDto {
  total: number;
  not_attempted: number;
  incomplete: number;
  completed: number;
  passed: number;
  failed: number;
}

/** T3: the course stages that use a module and its registrations by status (previews not counted). */
export class TrainingUsageDto {
  moduleid: number;

  @ApiProperty({ type: [UsageCourseDto] })
  courses: UsageCourseDto[];

  registrations: UsageRegistrationsDto;
}

/** A learner's attempt, an extension of the API (docs/enterprise/training-modules.md). */
export class TrainingRegistrationDto {
  registrationid: string;

  moduleid: number;

  versionid: number;

  userid: number;

  @ApiProperty({ enum: REGISTRATION_STATUSES })
  status: RegistrationStatus;

  /** -1..1, or null. */
  @ApiProperty({ type: 'number', nullable: true })
  score_scaled: number | null;

  total_time_s: number;

  @ApiProperty({ type: 'string', nullable: true })
  location: string | null;

  started_date: number;

  @ApiProperty({ type: 'integer', nullable: true })
  last_commit_date: number | null;

  /** Set once, when the registration first finishes (completed, passed or failed). */
  @ApiProperty({ type: 'integer', nullable: true })
  completed_date: number | null;
}
