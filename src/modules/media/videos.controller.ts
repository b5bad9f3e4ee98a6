import { Controller, Get, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { OrderedPageQueryDto, UploadQueryDto } from './dto/media-query.dto';
import { VideoDetailDto } from './dto/video-detail.dto';
import { MEDIA_OPTIONS, type MediaOptions } from './media-options';
import { UploadRoute } from './upload-route.decorator';
import { readUpload } from './upload-reader';
import { VideosService } from './videos.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';

const PROCESSING =
  'The upload is stored as is and listed as the single `ORIGINAL` encoding; encoding into other formats and ' +
  'sizes (mp4/webm/ogg renditions) is not done yet and may come later. Metadata comes from ffprobe when it is ' +
  'installed on the server (Debian package `ffmpeg`); without it only the type, size and checksum are known, ' +
  'dimensions and duration are 0 and `meta.note` says so. The thumbnail is a frame taken with ffmpeg, or a ' +
  'placeholder image without it.';

@ApiTags('Media')
@Controller()
export class VideosController {
  constructor(
    private readonly videos: VideosService,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  @Get('media/videos/:video')
  @ApiErrors(404)
  @Public()
  @ApiOperation({ summary: 'Video detail', description: `Any video, by id or guid, for anyone. ${PROCESSING}` })
  @ApiParam({ name: 'video', description: 'Video id (integer) or 16-character guid.' })
  @ApiOkResponse({ type: VideoDetailDto })
  @ApiNotFoundResponse({ description: 'No such video.' })
  detail(@Param('video') video: string): Promise<VideoDetailDto> {
    return this.videos.detail(video);
  }

  @Get('user/media/videos')
  @ApiErrors(422)
  @Authenticated()
  @ApiOperation({ summary: "The caller's media manager: videos", description: 'Ordered by videoid (`order`).' })
  @ApiOkResponse({ type: VideoDetailDto, isArray: true })
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: OrderedPageQueryDto): Promise<VideoDetailDto[]> {
    return this.videos.listMine(user.userid, query);
  }

  @Post('user/media/videos')
  @ApiErrors(413, 422)
  @Authenticated()
  @UploadRoute('video')
  @ApiOperation({
    summary: 'Upload a video into the media manager',
    description:
      'The type is decided by the content: MP4, QuickTime, 3GP, WebM, Matroska, Ogg or AVI (anything else 422). ' +
      `\`meta.state\` is finished, or failed when ffprobe could not read the file. ${PROCESSING}`,
  })
  @ApiOkResponse({ type: VideoDetailDto })
  async upload(
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: FastifyRequest,
    @Query() query: UploadQueryDto,
  ): Promise<VideoDetailDto> {
    const file = await readUpload(request, query.file, this.options.uploadLimit);
    return this.videos.upload(user.userid, file.data, file.filename);
  }
}
