import { ApiProperty } from '@nestjs/swagger';
import { UserLightDto } from '../../users/dto/user-response.dto';
import { SignatureViewDto } from '../../../platform/signatures/dto/signature-view.dto';
import { TeamRefDto } from './process-response.dto';
import { ReleaseDto } from '../../releases/dto/release-response.dto';

export class StageSignatureDto extends SignatureViewDto {
  @ApiProperty({ enum: ['approve', 'reject'] })
  decision: 'approve' | 'reject';
}

export class RequestStageDto {
  orderby: number;
  @ApiProperty({ enum: ['waiting', 'pending', 'approved', 'rejected', 'skipped'] })
  status: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'UNIX time the stage opened' })
  init_date: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'UNIX time the stage closed' })
  end_date: number | null;
  @ApiProperty({ type: UserLightDto, nullable: true })
  user: UserLightDto | null;
  @ApiProperty({ type: TeamRefDto, nullable: true })
  team: TeamRefDto | null;
  required_signatures: number;
  signatures: StageSignatureDto[];
}

export class RequestProcessRefDto {
  approval_processid: number;
  approval_process_revisionid: number;
  name: string;
}

export class ApprovalRequestDto {
  approval_requestid: number;
  @ApiProperty({ enum: ['pending', 'approved', 'rejected', 'cancelled'] })
  status: string;
  releaseid: number;
  /** The release the request gates (docs/enterprise/releases.md). */
  release: ReleaseDto;
  @ApiProperty({ enum: ['GUIDE', 'WIKI'] })
  doctype: string;
  docid: number;
  document_title: string;
  requested_by: UserLightDto;
  /** UNIX time. */
  init_date: number;
  @ApiProperty({ type: 'integer', nullable: true })
  end_date: number | null;
  process: RequestProcessRefDto;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The open stage (an orderby), null once closed' })
  current_stage: number | null;
  stage_count: number;
  stages: RequestStageDto[];
  /** Whether the caller may sign now (docs/enterprise/approvals.md, Eligible). */
  eligible: boolean;
}

export class SignCodeSentDto {
  @ApiProperty({ enum: ['email'] })
  delivery: 'email';
  /** UNIX time the code expires. */
  expires_date: number;
}
