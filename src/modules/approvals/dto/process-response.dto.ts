import { ApiProperty } from '@nestjs/swagger';
import { UserLightDto } from '../../users/dto/user-response.dto';

export class TeamRefDto {
  teamid: number;
  name: string;
}

export class ProcessStageDto {
  approval_process_stageid: number;
  /** 1-10. */
  orderby: number;
  @ApiProperty({ type: UserLightDto, nullable: true })
  user: UserLightDto | null;
  @ApiProperty({ type: TeamRefDto, nullable: true })
  team: TeamRefDto | null;
  required_signatures: number;
}

export class ApprovalProcessDto {
  approval_processid: number;
  /** The revision shown (the current one unless `?revisionid=` named another). */
  approval_process_revisionid: number;
  name: string;
  site_default: boolean;
  stages: ProcessStageDto[];
  /** Documents whose `all` or `major` slot names this process. */
  documents_count: number;
  /** UNIX time. */
  created_date: number;
  /** UNIX time. */
  modified_date: number;
}

export class ProcessAssignmentDto {
  @ApiProperty({ enum: ['major', 'minor'] })
  release_type: 'major' | 'minor';
  @ApiProperty({ type: 'integer', nullable: true })
  approval_processid: number | null;
  @ApiProperty({ type: 'integer', nullable: true })
  approval_process_revisionid: number | null;
  @ApiProperty({ type: 'string', nullable: true })
  name: string | null;
  @ApiProperty({ enum: ['document_major', 'document', 'site_default', 'none'] })
  source: 'document_major' | 'document' | 'site_default' | 'none';
}

export class WikiAssignmentDto {
  wikiid: number;
  @ApiProperty({ enum: ['all', 'major'] })
  release_type: 'all' | 'major';
  approval_process: ApprovalProcessDto;
}
