import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const url = (description: string) => ({ type: 'string', format: 'uri', description }) as const;

/**
 * The Image object embedded in many resources. Every variant URL is absolute (built from PUBLIC_URL, or
 * MEDIA_PUBLIC_URL when files are served from a bucket or CDN).
 */
export class ImageObjectDto {
  @ApiProperty({ type: 'integer', description: 'Image id (0 for the default avatar).', example: 12 })
  id: number;

  @ApiPropertyOptional({
    description: '16-character identifier, accepted wherever an image id is. Absent on the default avatar.',
    example: 'FucWIkw2ZEBiIJHk',
  })
  guid?: string;

  @ApiProperty(url('Within 56×42 px.'))
  mini: string;

  @ApiProperty(url('Within 96×72 px.'))
  thumbnail: string;

  @ApiProperty(url('Exactly 140×105 px, centre-cropped.'))
  '140x105': string;

  @ApiProperty(url('Exactly 200×150 px, centre-cropped.'))
  '200x150': string;

  @ApiProperty(url('Within 300×225 px.'))
  standard: string;

  @ApiProperty(url('Exactly 440×330 px, centre-cropped.'))
  '440x330': string;

  @ApiProperty(url('Within 592×444 px.'))
  medium: string;

  @ApiProperty(url('Within 800×600 px.'))
  large: string;

  @ApiProperty(url('Within 1600×1200 px.'))
  huge: string;

  @ApiProperty(url('Full size, EXIF orientation applied.'))
  original: string;
}
