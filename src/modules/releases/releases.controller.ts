import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import {
  CreateGuideReleaseDto,
  CreateWikiReleaseDto,
  DuplicateReleasesDto,
  UpdateReleaseDto,
} from './dto/release-body.dto';
import { DocumentReleasesQueryDto, GuideReleasesQueryDto } from './dto/release-query.dto';
import { ReleaseBatchConflictDto, ReleaseDto, ReleaseListDto } from './dto/release-response.dto';
import { ReleaseDuplicatesService } from './release-duplicates.service';
import { ReleaseViewsService } from './release-views.service';
import { ReleasesService } from './releases.service';

const ReleaseId = () => Param('releaseid', new ParseIdPipe('Release'));

const CREATE_RULES =
  '`type` major or minor; `title` 1-255 (default `Release v<version>`); `notes` at most 65535; `revisionid` ' +
  'defaults to, and may only be, the current patrolled revision of `langid` (default: the source language): ' +
  'another revision of the document is 409 with the document detail, a revision of another document 422. ' +
  'A pending release of the document and language is 409 with that release. When an approval process ' +
  'applies the release is `pending` and an approval request opens; otherwise it is ' +
  '`released` at once and readers who are not editors see its revision. `periodic_review_confirmed` signs ' +
  'with `password` (wrong: 403, locked: 429); the flag is stored true only while the document’s periodic ' +
  'review is open or overdue (otherwise false). Version: major `(X+1).0`, minor `X.(Y+1)` after the highest ' +
  'version ever released.';

/** Guide releases: R1-R6 (docs/enterprise/releases.md). Static `releases` segments win over `{guideid}`. */
@ApiTags('Releases')
@Controller('guides')
export class GuideReleasesController {
  constructor(
    private readonly views: ReleaseViewsService,
    private readonly releases: ReleasesService,
    private readonly duplicates: ReleaseDuplicatesService,
  ) {}

  @Get('releases')
  @ApiErrors(422)
  @Authenticated()
  @ApiOperation({
    summary: 'List guide releases',
    description:
      'Releases of guides, by releaseid (`order`). Readers see `released` releases of guides they may read; ' +
      'editors of a guide see all its releases. Filters: `guideid`, `status`, `type`. Wiki releases are not listed.',
  })
  @ApiOkResponse({ type: ReleaseListDto })
  list(@Query() query: GuideReleasesQueryDto, @CurrentUser() caller: AuthenticatedUser): Promise<ReleaseListDto> {
    return this.views.guideReleases(query, caller);
  }

  @Post('releases')
  @ApiErrors(403, 404, 422, 429)
  @Authenticated()
  @ApiOperation({ summary: 'Release a guide', description: `Editors of the guide. ${CREATE_RULES}` })
  @ApiCreatedResponse({ type: ReleaseDto })
  @ApiConflictResponse({
    description:
      'A pending release exists (body: that release), or revisionid is not current (body: the guide detail).',
  })
  create(@Body() body: CreateGuideReleaseDto, @CurrentUser() caller: AuthenticatedUser): Promise<ReleaseDto> {
    const { guideid, ...rest } = body;
    return this.releases.create('GUIDE', guideid, rest, caller);
  }

  @Post('duplicateReleases')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiExtraModels(ReleaseBatchConflictDto)
  @ApiOperation({
    summary: 'Release several guides like another release',
    description:
      'Releases each guide’s current revision with the type, title and notes of `releaseid` (a GUIDE release ' +
      'the caller may read), each through its own approval, in one transaction: all or nothing, no history ' +
      'copied. The caller must edit every guide (403 otherwise). A repeated guideid is 422; a guide with a ' +
      'pending release is 409 `{error, message, conflicts:[{guideid, releaseid}]}`. Answers the releases in ' +
      'request order.',
  })
  @ApiCreatedResponse({ type: ReleaseListDto })
  @ApiConflictResponse({
    description: 'A guide has a pending release.',
    schema: { $ref: getSchemaPath(ReleaseBatchConflictDto) },
  })
  duplicate(@Body() body: DuplicateReleasesDto, @CurrentUser() caller: AuthenticatedUser): Promise<ReleaseListDto> {
    return this.duplicates.duplicate(body, caller);
  }

  @Patch('releases/:releaseid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Edit a pending guide release',
    description:
      'Title and notes (at least one) of a `pending` release, by its creator or a Moderator+. Not pending: ' +
      '409 with the release. A wiki release is 404 here.',
  })
  @ApiOkResponse({ type: ReleaseDto })
  @ApiConflictResponse({ description: 'The release is not pending; the body is the release.' })
  update(
    @Body() body: UpdateReleaseDto,
    @ReleaseId() releaseid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<ReleaseDto> {
    return this.releases.update(releaseid, body, caller);
  }

  @Delete('releases/:releaseid')
  @ApiErrors(403, 404)
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({
    summary: 'Cancel or remove a guide release',
    description:
      'A `pending` release becomes `cancelled` (its creator or a Moderator+; its approval request is cancelled); ' +
      'a `released` one becomes `removed` (Admin; the previous released release, or else the working copy, goes ' +
      'live). Other states: 409 with the release. The release stays readable. A wiki release is 404 here.',
  })
  @ApiNoContentResponse()
  @ApiConflictResponse({ description: 'The release is in a terminal state; the body is the release.' })
  async remove(@ReleaseId() releaseid: number, @CurrentUser() caller: AuthenticatedUser): Promise<void> {
    await this.releases.remove('GUIDE', releaseid, caller);
  }

  @Get(':guideid/releases')
  @ApiErrors(404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Releases of a guide',
    description:
      'Readers of the guide (404 otherwise) see its `released` releases; its editors see all. By releaseid (`order`).',
  })
  @ApiOkResponse({ type: ReleaseListDto })
  forGuide(
    @Query() query: DocumentReleasesQueryDto,
    @Param('guideid', new ParseIdPipe('Guide')) guideid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<ReleaseListDto> {
    return this.views.documentReleases('GUIDE', guideid, query, caller);
  }
}

/** Wiki releases: R7, R8. `/wikis/releases/…` wins over `/wikis/{namespace}/{title}`. */
@ApiTags('Releases')
@Controller('wikis')
export class WikiReleasesController {
  constructor(private readonly releases: ReleasesService) {}

  @Post(':wikiid/releases')
  @ApiErrors(403, 404, 422, 429)
  @Authenticated()
  @ApiOperation({ summary: 'Release a wiki', description: `Editors of the wiki. ${CREATE_RULES}` })
  @ApiCreatedResponse({ type: ReleaseDto })
  @ApiConflictResponse({
    description: 'A pending release exists (body: that release), or revisionid is not current (body: the wiki detail).',
  })
  create(
    @Body() body: CreateWikiReleaseDto,
    @Param('wikiid', new ParseIdPipe('Wiki')) wikiid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<ReleaseDto> {
    return this.releases.create('WIKI', wikiid, body, caller);
  }

  @Delete('releases/:releaseid')
  @ApiErrors(403, 404)
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({
    summary: 'Cancel or remove a wiki release',
    description: 'As DELETE /guides/releases/{releaseid}, for wiki releases (a guide release is 404 here).',
  })
  @ApiNoContentResponse()
  @ApiConflictResponse({ description: 'The release is in a terminal state; the body is the release.' })
  async remove(@ReleaseId() releaseid: number, @CurrentUser() caller: AuthenticatedUser): Promise<void> {
    await this.releases.remove('WIKI', releaseid, caller);
  }
}
