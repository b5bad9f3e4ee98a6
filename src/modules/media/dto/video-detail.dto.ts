import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ImageDetailDto } from './image-detail.dto';

export class VideoEncodingDto {
  @ApiProperty({ description: 'Encoding identifier; the stored upload is `ORIGINAL`.', example: 'ORIGINAL' })
  column: string;

  @ApiProperty({ example: 'Original' })
  label: string;

  @ApiProperty({ type: 'integer' })
  width: number;

  @ApiProperty({ type: 'integer' })
  height: number;

  @ApiProperty({ description: 'Codec names as reported by ffprobe, comma-separated; empty when unknown.' })
  codecs: string;

  @ApiProperty({ example: 'video/mp4' })
  mime: string;

  @ApiProperty({ example: 'mp4' })
  format: string;

  @ApiProperty({ format: 'uri' })
  url: string;

  @ApiProperty()
  always_generate: boolean;
}

export class VideoMetaDto {
  @ApiProperty({ type: 'integer', description: 'The videoid.' })
  id: number;

  @ApiProperty({
    enum: ['processing', 'finished', 'failed'],
    description:
      'finished: stored and probed; failed: stored, but ffprobe could not read it. processing is reserved for ' +
      'background encodings (not produced yet).',
  })
  state: string;

  @ApiProperty({ description: 'Container format (ffprobe format name, or the detected type).' })
  format: string;

  @ApiProperty({ type: 'integer' })
  file_size_in_bytes: number;

  @ApiProperty({ type: 'string', nullable: true })
  md5_checksum: string | null;

  @ApiProperty({ type: 'integer', description: '0 when unknown.' })
  duration_in_ms: number;

  @ApiProperty({ type: 'integer' })
  width: number;

  @ApiProperty({ type: 'integer' })
  height: number;

  @ApiProperty({ description: 'Empty when unknown.' })
  video_codec: string;

  @ApiProperty({ description: 'Empty when unknown or silent.' })
  audio_codec: string;

  @ApiProperty({ type: 'number' })
  frame_rate: number;

  @ApiProperty({ type: 'integer' })
  video_bitrate_in_kbps: number;

  @ApiProperty({ type: 'integer' })
  audio_bitrate_in_kbps: number;

  @ApiProperty({ type: 'integer' })
  total_bitrate_in_kbps: number;

  @ApiProperty({ type: 'integer' })
  audio_sample_rate: number;

  @ApiProperty()
  channels: string;

  @ApiPropertyOptional({
    description: 'Present when the server could not probe the file (ffprobe not installed, or unreadable file).',
  })
  note?: string;
}

export class VideoDetailDto {
  @ApiProperty({ type: 'integer' })
  videoid: number;

  @ApiProperty({ description: '16-character identifier, accepted wherever a video id is.' })
  guid: string;

  @ApiProperty({ type: 'integer', nullable: true })
  srcid: number | null;

  @ApiProperty()
  filename: string;

  @ApiProperty({ type: 'integer', description: 'Duration in milliseconds (same as meta.duration_in_ms).' })
  duration: number;

  @ApiProperty({ type: 'integer' })
  width: number;

  @ApiProperty({ type: 'integer' })
  height: number;

  @ApiProperty({ type: ImageDetailDto, nullable: true, description: 'The thumbnail image.' })
  image: ImageDetailDto | null;

  @ApiProperty({ type: VideoMetaDto })
  meta: VideoMetaDto;

  @ApiProperty({ type: VideoEncodingDto, isArray: true })
  encodings: VideoEncodingDto[];
}
