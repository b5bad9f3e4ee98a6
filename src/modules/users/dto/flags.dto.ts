import { ApiProperty } from '@nestjs/swagger';

export class FlagDto {
  flagid: string;
  /** URL of the flag's icon. */
  image: string;
  title: string;
  text: string;
}

export class UserFlagsDto {
  /** Flags the caller may add to and remove from guides, keyed by flagid. */
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/FlagDto' } })
  guide: Record<string, FlagDto>;
}
