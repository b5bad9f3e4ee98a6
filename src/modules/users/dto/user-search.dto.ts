import { AvatarImageDto, UserLightDto } from './user-response.dto';

export class UserSearchResultDto {
  search: string;
  limit: number;
  offset: number;
  totalResults: number;
  moreResults: boolean;
  results: UserLightDto[];
}

export class NameSearchItemDto {
  username: string;
  unique_username: string | null;
  /** URL of the mini avatar. */
  image: string;
}

export class NameSearchResultDto {
  search: string;
  limit: number;
  offset: number;
  totalResults: number;
  moreResults: boolean;
  results: NameSearchItemDto[];
}

export { AvatarImageDto };
