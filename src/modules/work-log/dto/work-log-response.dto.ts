import { ApiProperty } from '@nestjs/swagger';
import { SignatureViewDto } from '../../../platform/signatures/dto/signature-view.dto';
import { EntryStepFormDto } from '../../step-forms/dto/step-form.dto';
import { UserLightDto } from '../../users/dto/user-response.dto';
import { ENTRY_STATUSES } from '../work-log-entry.state-machine';

/** The newest value recorded for one field (by field_guid). Dozuki's keys first. */
export class WorkDataDto {
  label: string;
  /** Always a string: numbers as written, checkboxes '1' or '0', media as their id. */
  value: string;
  field_revisionid: number;
  stepid: number;
  field_guid: string;
  /** When it was recorded (UNIX seconds). */
  date: number;
}

export class WorkLogTimingDto {
  timingid: number;
  stepid: number;
  date_start: number;
  @ApiProperty({ type: 'integer', nullable: true })
  date_end: number | null;
}

export class EntrySignoffRefDto {
  signoffid: number;
  stepid: number;
  teamid: number;
  @ApiProperty({ enum: ['pending', 'approved', 'rejected'] })
  status: string;
}

export class PinnedReleaseDto {
  releaseid: number;
  /** `X.Y` */
  version: string;
}

/** WorkLogEntry (docs/enterprise/work-log.md): Dozuki's keys (GET /work_log items) first, added keys after. */
export class WorkLogEntryDto {
  /** The entryid again (Dozuki's list items carry both). */
  id: number;
  entryid: number;
  guideid: number;
  /** The owner. */
  userid: number;
  workorderid: string;
  starttime: number;
  @ApiProperty({ type: 'integer', nullable: true })
  endtime: number | null;
  /** The highest form revision of the guide's steps when the entry started (0 if none): the forms it fills. */
  max_form_revisionid: number;
  @ApiProperty({ enum: [0, 1] })
  cancelled: number;
  /** The guide revision the operator read at the start; at finish, the revision current then. */
  guide_revisionid: number;
  /** Seconds from start to end, or to now. */
  duration: number;
  @ApiProperty({ enum: ENTRY_STATUSES })
  status: string;
  @ApiProperty({ type: [WorkDataDto] })
  work_data: WorkDataDto[];
  /** The newest timing. */
  @ApiProperty({ type: 'integer', nullable: true })
  timingid: number | null;
  paused_seconds: number;
  @ApiProperty({ type: 'integer', nullable: true })
  current_stepid: number | null;
  @ApiProperty({ type: [WorkLogTimingDto] })
  timings: WorkLogTimingDto[];
  @ApiProperty({ type: [EntrySignoffRefDto] })
  signoffs: EntrySignoffRefDto[];
  /** The release in force when the entry started (null when the guide had none). */
  @ApiProperty({ type: PinnedReleaseDto, nullable: true })
  release: PinnedReleaseDto | null;
  /** Single-entry answers only: per step, the form revision this entry fills (as when it started). */
  @ApiProperty({ type: [EntryStepFormDto], required: false })
  forms?: EntryStepFormDto[];
}

export class WorkLogListDto {
  @ApiProperty({ type: [WorkLogEntryDto] })
  results: WorkLogEntryDto[];
}

/** FinishResult (docs/enterprise/work-log.md): Dozuki's keys first. */
export class FinishResultDto {
  endtime: number;
  max_form_revisionid: number;
  guide_revisionid: number;
  entryid: number;
  status: string;
  duration: number;
}

export class SignoffEntryRefDto {
  entryid: number;
  guideid: number;
  workorderid: string;
  userid: number;
}

export class TeamRefDto {
  teamid: number;
  name: string;
}

export class SignoffDto {
  signoffid: number;
  entry: SignoffEntryRefDto;
  stepid: number;
  team: TeamRefDto;
  @ApiProperty({ enum: ['pending', 'approved', 'rejected'] })
  status: string;
  requested_by: UserLightDto;
  requested_date: number;
  @ApiProperty({ type: UserLightDto, nullable: true })
  signer: UserLightDto | null;
  @ApiProperty({ type: SignatureViewDto, nullable: true })
  signature: SignatureViewDto | null;
  /** When it was decided. */
  @ApiProperty({ type: 'integer', nullable: true })
  date: number | null;
}

export class SignoffListDto {
  @ApiProperty({ type: [SignoffDto] })
  results: SignoffDto[];
}
