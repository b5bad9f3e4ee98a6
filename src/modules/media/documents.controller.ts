import { Controller, Get, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { DocumentsService } from './documents.service';
import { DocumentObjectDto } from './dto/document-object.dto';
import { OrderedPageQueryDto, UploadQueryDto } from './dto/media-query.dto';
import { MEDIA_OPTIONS, type MediaOptions } from './media-options';
import { UploadRoute } from './upload-route.decorator';
import { readUpload } from './upload-reader';
import { ApiErrors } from '../../common/openapi/api-error-responses';

@ApiTags('Media')
@Controller()
export class DocumentsController {
  constructor(
    private readonly documents: DocumentsService,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  @Get('media/documents/:document')
  @ApiErrors(404)
  @Public()
  @ApiOperation({
    summary: 'Document detail',
    description:
      'Any document, by id or guid, for anyone (documents attached to guides and categories are published ' +
      'assets). All digits and shorter than 16 characters is an id; anything else a guid.',
  })
  @ApiParam({ name: 'document', description: 'Document id (integer) or 16-character guid.' })
  @ApiOkResponse({ type: DocumentObjectDto })
  @ApiNotFoundResponse({ description: 'No such document.' })
  detail(@Param('document') document: string): Promise<DocumentObjectDto> {
    return this.documents.detail(document);
  }

  @Get('user/media/documents')
  @ApiErrors(422)
  @Authenticated()
  @ApiOperation({ summary: "The caller's media manager: documents", description: 'Ordered by documentid (`order`).' })
  @ApiOkResponse({ type: DocumentObjectDto, isArray: true })
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: OrderedPageQueryDto): Promise<DocumentObjectDto[]> {
    return this.documents.listMine(user.userid, query);
  }

  @Post('user/media/documents')
  @ApiErrors(413, 422)
  @Authenticated()
  @UploadRoute('document')
  @ApiOperation({
    summary: 'Upload a document into the media manager',
    description:
      'PDF, Word, Excel and PowerPoint (doc, docx, xls, xlsx, ppt, pptx) and OpenDocument (odt, ods, odp), decided by ' +
      "the content (legacy doc/xls/ppt share one container, so for them the name's extension picks which); " +
      'anything else 422. Documents have no thumbnail: `standard`, `thumbnail` and `mini` are placeholder images.',
  })
  @ApiOkResponse({ type: DocumentObjectDto })
  async upload(
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: FastifyRequest,
    @Query() query: UploadQueryDto,
  ): Promise<DocumentObjectDto> {
    const file = await readUpload(request, query.file, this.options.uploadLimit);
    return this.documents.upload(user.userid, file.data, file.filename);
  }
}
