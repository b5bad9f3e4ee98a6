import { ApiProperty } from '@nestjs/swagger';

export class ViewHistoryEntryDto {
  @ApiProperty({ type: 'integer', description: 'The viewer.' })
  userid: number;

  @ApiProperty({ description: "The viewer's display name." })
  username: string;

  @ApiProperty({ enum: ['GUIDE', 'WIKI'] })
  doc_type: string;

  @ApiProperty({ description: "The guideid, or the wiki's wikiid, as a string.", example: '42' })
  docid: string;

  @ApiProperty({ type: 'integer', description: 'When the view happened (UNIX seconds).' })
  date: number;
}
