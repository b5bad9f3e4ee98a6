import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { PaginationQueryDto } from '../../../common/validation/pagination.dto';
import { QueryInt, QueryOrder } from '../../../common/validation/query-decorators';

export class UserImagesQueryDto extends PaginationQueryDto {
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(['ALL', 'ONE_ONE', 'FOUR_THREE', 'VARIABLE'], { message: 'ratio must be ALL, ONE_ONE, FOUR_THREE or VARIABLE' })
  @ApiPropertyOptional({ enum: ['ALL', 'ONE_ONE', 'FOUR_THREE', 'VARIABLE'], default: 'ALL' })
  ratio: string = 'ALL';

  @IsOptional()
  @QueryInt({ min: 0, default: 0, description: 'Only images at least this tall.' })
  minHeight: number = 0;

  @IsOptional()
  @QueryInt({ min: 0, default: 0, description: 'Only images at least this wide.' })
  minWidth: number = 0;
}

export class OrderedPageQueryDto extends PaginationQueryDto {
  @IsOptional()
  @QueryOrder('Direction of the id order.')
  order: 'ASC' | 'DESC' = 'ASC';
}

export class UploadQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @ApiPropertyOptional({
    description:
      "File name of the upload: required for a raw body, optional for multipart (the part's file name is used). " +
      'The type is decided by the content, never by this name.',
  })
  file?: string;
}

export class ImageUploadQueryDto extends UploadQueryDto {
  @IsOptional()
  @IsIn(['ONE_ONE', 'FOUR_THREE', 'VARIABLE'], { message: 'cropToRatio must be ONE_ONE, FOUR_THREE or VARIABLE' })
  @ApiPropertyOptional({
    enum: ['ONE_ONE', 'FOUR_THREE', 'VARIABLE'],
    description: 'Centre-crop the upload to this ratio; VARIABLE (what Dozuki clients send) keeps it as it is.',
  })
  cropToRatio?: 'ONE_ONE' | 'FOUR_THREE' | 'VARIABLE';
}
