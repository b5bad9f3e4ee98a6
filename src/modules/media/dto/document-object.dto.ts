import { ApiProperty } from '@nestjs/swagger';

/** A PDF or office document (guides' `documents`, category documents, GET /media/documents/{id}). */
export class DocumentObjectDto {
  @ApiProperty({ type: 'integer' })
  documentid: number;

  @ApiProperty({ description: '16-character identifier, accepted wherever a document id is.' })
  guid: string;

  @ApiProperty({ description: 'File name as uploaded.' })
  filename: string;

  @ApiProperty({ description: 'Display title; the file name unless one is set.' })
  title: string;

  @ApiProperty({ type: 'integer', description: 'File size in bytes.' })
  size: number;

  @ApiProperty({ description: 'Content type, detected from the file content.', example: 'application/pdf' })
  mime: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Thumbnail image id: documents have none yet (null).' })
  thumbnailid: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Same as thumbnailid.' })
  imageid: number | null;

  @ApiProperty({ description: 'Same as mime.' })
  document_type: string;

  @ApiProperty({ example: 'pdf' })
  document_extension: string;

  @ApiProperty({ enum: ['pdf', 'word', 'spreadsheet', 'presentation'] })
  document_group: string;

  @ApiProperty({ format: 'uri', description: 'Placeholder image (standard size), as documents have no thumbnail.' })
  standard: string;

  @ApiProperty({ format: 'uri', description: 'Placeholder image (thumbnail size).' })
  thumbnail: string;

  @ApiProperty({ format: 'uri', description: 'Placeholder image (mini size).' })
  mini: string;

  @ApiProperty({ format: 'uri', description: 'Absolute URL of the file.' })
  download_url: string;

  @ApiProperty({ format: 'uri', description: 'Same as download_url.' })
  url: string;

  @ApiProperty({ type: 'integer', description: 'Upload time (UNIX seconds).' })
  date: number;

  @ApiProperty({ type: 'string', nullable: true })
  summary: string | null;

  @ApiProperty({ enum: ['Document'] })
  type: 'Document';
}
