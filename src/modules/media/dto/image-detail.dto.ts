import { ApiProperty } from '@nestjs/swagger';
import { RATIOS } from '../processing/image-variants';
import { ImageObjectDto } from './image-object.dto';

export class ImageDetailDto {
  @ApiProperty({ type: ImageObjectDto })
  image: ImageObjectDto;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Id of the image this one was copied or cropped from; null for an original upload.',
  })
  srcid: number | null;

  @ApiProperty({ type: 'integer', description: 'Width in pixels (after EXIF orientation and cropping).' })
  width: number;

  @ApiProperty({ type: 'integer', description: 'Height in pixels.' })
  height: number;

  @ApiProperty({ enum: RATIOS, description: 'ONE_ONE (1:1) or FOUR_THREE (landscape 4:3) within 1%, else VARIABLE.' })
  ratio: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Annotation markup; null when none.' })
  markup: string | null;

  @ApiProperty({
    description:
      'EXIF fields of the upload (camera, exposure, dates, orientation) plus FileName; an empty array when there ' +
      'are none. GPS data is never recorded.',
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', maxItems: 0 },
    ],
  })
  exif: Record<string, string | number> | [];
}
