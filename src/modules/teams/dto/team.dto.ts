import { IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt, QueryOrder } from '../../../common/validation/query-decorators';
import { AvatarImageDto } from '../../users/dto/user-response.dto';
import { Trim } from '../../../common/validation/string-decorators';

export class TeamDto {
  teamid: number;
  name: string;
  /** The owner's userid; the first member added becomes the owner. */
  owner: number | null;
  /** Sum of the members' reputation (enabled, unbanned members). */
  reputation: number;
  image: AvatarImageDto;
  url: string;
  member_count: number;
  description: string;
  /** UNIX time the newest member joined (0 without members). */
  new_member_since: number;
}

export class CreateTeamDto {
  @Trim()
  @IsString()
  @Length(1, 255)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(65535)
  description?: string;
}

export class ListTeamsQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Sort by teamid')
  order: 'ASC' | 'DESC' = 'ASC';

  @IsOptional()
  @QueryInt({
    min: 0,
    description: 'Only teams with a member who joined at or after this UNIX time; aggregates count only those members.',
  })
  newMemberSince?: number;
}

export class TeamMembersQueryDto {
  @IsOptional()
  @QueryOrder('Sort members by userid')
  order: 'ASC' | 'DESC' = 'ASC';
}
