import { Controller, Delete, Get, HttpCode, HttpStatus, Inject, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ImageDetailDto } from './dto/image-detail.dto';
import { ImageUploadQueryDto, UserImagesQueryDto } from './dto/media-query.dto';
import { ImagesService } from './images.service';
import { MEDIA_OPTIONS, type MediaOptions } from './media-options';
import { VARIANTS_DESCRIPTION } from './processing/image-variants';
import { UploadRoute } from './upload-route.decorator';
import { readUpload } from './upload-reader';
import { ApiErrors } from '../../common/openapi/api-error-responses';

const ID_OR_GUID = 'Image id (integer) or 16-character guid.';

@ApiTags('Media')
@Controller()
export class ImagesController {
  constructor(
    private readonly images: ImagesService,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  @Get('media/images/:image')
  @ApiErrors(404)
  @Public()
  @ApiOperation({
    summary: 'Image detail',
    description: `Any image, by id or guid, for anyone (images are published assets). ${VARIANTS_DESCRIPTION}`,
  })
  @ApiParam({ name: 'image', description: ID_OR_GUID })
  @ApiOkResponse({ type: ImageDetailDto })
  @ApiNotFoundResponse({ description: 'No such image (or it was deleted).' })
  detail(@Param('image') image: string): Promise<ImageDetailDto> {
    return this.images.detail(image);
  }

  @Get('user/media/images')
  @ApiErrors(422)
  @Authenticated()
  @ApiOperation({
    summary: "The caller's media manager: images",
    description:
      'Newest first. `ratio` (ALL by default) filters by ratio; `minWidth`/`minHeight` keep images at least that large.',
  })
  @ApiOkResponse({ type: ImageDetailDto, isArray: true })
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: UserImagesQueryDto): Promise<ImageDetailDto[]> {
    return this.images.listMine(user.userid, query);
  }

  @Post('user/media/images')
  @ApiErrors(413, 422)
  @Authenticated()
  @UploadRoute('image')
  @ApiOperation({
    summary: 'Upload an image into the media manager',
    description:
      'The type is decided by the content: JPEG, PNG, GIF or WebP (anything else 422). At least 50×50 pixels and at ' +
      'most MEDIA_MAX_PIXELS pixels (default 50,000,000), else 422; larger than UPLOAD_LIMIT: 413. EXIF ' +
      'orientation is applied; `cropToRatio` centre-crops to 1:1 or 4:3. Every variant is generated before the ' +
      `response. ${VARIANTS_DESCRIPTION}`,
  })
  @ApiOkResponse({ type: ImageDetailDto })
  async upload(
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: FastifyRequest,
    @Query() query: ImageUploadQueryDto,
  ): Promise<ImageDetailDto> {
    const file = await readUpload(request, query.file, this.options.uploadLimit);
    return this.images.upload(user.userid, file.data, {
      filename: file.filename,
      cropToRatio: query.cropToRatio === 'VARIABLE' ? undefined : query.cropToRatio,
    });
  }

  @Post('user/media/images/:image')
  @ApiErrors(404, 422)
  @Authenticated()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Copy an image into the media manager',
    description:
      "Copies any image (by id or guid, whoever owns it), files included, into the caller's media manager. The " +
      'copy is a new image whose `srcid` is the source.',
  })
  @ApiParam({ name: 'image', description: ID_OR_GUID })
  @ApiOkResponse({ type: ImageDetailDto })
  @ApiNotFoundResponse({ description: 'No such image.' })
  copy(@CurrentUser() user: AuthenticatedUser, @Param('image') image: string): Promise<ImageDetailDto> {
    return this.images.copyToManager(user.userid, image);
  }

  @Delete('user/media/images/:imageids')
  @ApiErrors(404, 422)
  @Authenticated()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Remove images from the media manager',
    description:
      "A comma list of at most 1000 image ids (or guids). Images that do not exist or are not in the caller's media " +
      'manager are skipped. An image that no guide, step, wiki, user or video uses any more is deleted with its ' +
      'files (it then answers 404); one still in use stays readable.',
  })
  @ApiParam({ name: 'imageids', description: 'Comma-separated image ids, e.g. `12,13`.' })
  @ApiNoContentResponse({ description: 'Done (whatever was skipped).' })
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('imageids') imageids: string): Promise<void> {
    await this.images.removeFromManager(user.userid, imageids);
  }
}
