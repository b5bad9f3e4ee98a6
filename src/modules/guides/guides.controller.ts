import { JsonText } from '../../common/http/json-text';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { Revalidated } from '../../common/http/conditional-get';
import { XmlResponse } from '../../common/http/response-mode';
import { RevisionId, Versioned } from '../../common/revisions/versioned.decorator';
import { PaginationQueryDto } from '../../common/validation/pagination.dto';
import { CreateGuideDto, UpdateGuideDto } from './dto/guide-body.dto';
import { GuideDetailQueryDto, ListGuidesQueryDto } from './dto/guide-query.dto';
import { GuideDetailDto, GuideSummaryDto } from './dto/guide-response.dto';
import { GuideQueriesService } from './guide-queries.service';
import { GUIDE_ANSWER_SOURCES, GUIDE_DOCUMENT_TABLES } from './guide-reader.service';
import { CachedResponse } from '../../platform/response-cache/cached-response';
import { GuideWriterService } from './guide-writer.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { GuideId } from './guide-id.param';

@ApiTags('Guides')
@Controller('guides')
export class GuidesController {
  constructor(
    private readonly lists: GuideQueriesService,
    private readonly writer: GuideWriterService,
  ) {}

  @Get()
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'List guides',
    description:
      'Public, non-deleted guides by guideid, in their source language (the newest patrolled revision). `includePrivate` ' +
      'takes effect for Admins only and is ignored for anyone else. With `guideids` (first 50 used), filter, ' +
      'modifiedSince and pagination are ignored and unknown or hidden ids are left out. `filter` takes ' +
      'comma-separated types; unknown types match nothing. A guide with a released release is summarised from ' +
      "that release's revision for callers who may not edit it (its editors see the working copy), as in its detail.",
  })
  @ApiOkResponse({ type: [GuideSummaryDto] })
  @CachedResponse({ family: 'answers', sources: GUIDE_ANSWER_SOURCES, callers: 'anonymous' })
  list(@Query() query: ListGuidesQueryDto, @CurrentUser() caller?: AuthenticatedUser): Promise<GuideSummaryDto[]> {
    return this.lists.list(query, caller);
  }

  @Get('featured')
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'Featured guides',
    description: 'Public guides flagged GUIDE_STARRED or GUIDE_FEATURED_STUDENT, by guideid.',
  })
  @ApiOkResponse({ type: [GuideSummaryDto] })
  featured(@Query() query: PaginationQueryDto, @CurrentUser() caller?: AuthenticatedUser): Promise<GuideSummaryDto[]> {
    return this.lists.featured(query, caller);
  }

  @Get(':guideid')
  @ApiErrors(404, 422)
  @Public()
  @XmlResponse('guide')
  @ApiOperation({
    summary: 'A guide with its steps',
    description:
      'The newest patrolled revision (`unpatrolled`: the newest, for callers who may edit the guide; anyone else gets ' +
      'the patrolled revision: unreviewed edits are for editors), in `langid` when a translation exists, else in the ' +
      'source language (`locale` says which); untranslated step titles and lines fall back one by one (inlined ' +
      'prerequisite steps are shown in their own source language). ' +
      '`machineTranslateLangid`: see the parameter. Prerequisite steps are inlined before the guide’s own steps unless ' +
      '`excludePrerequisiteSteps` is present; prerequisites the caller may not read are left out. A guide the ' +
      'caller may not read, or a deleted one, is a 404. `can_edit`, `favorited` and `completed` are for the caller. ' +
      'Authenticated reads are recorded in the view history. Once the guide has a released release, callers who ' +
      'may not edit it see the newest released release’s revision (editors see the working copy).',
  })
  @ApiOkResponse({ type: GuideDetailDto })
  @Revalidated()
  @CachedResponse({
    family: 'answers-guide',
    sources: GUIDE_ANSWER_SOURCES,
    callers: 'anonymous',
    document: { param: 'guideid', tables: GUIDE_DOCUMENT_TABLES, othersFamily: 'answers' },
  })
  detail(
    @GuideId() guideid: number,
    @Query() query: GuideDetailQueryDto,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    return this.lists.detail(guideid, query, caller);
  }

  @Post()
  @ApiErrors(403, 422)
  @Authenticated('Author')
  @ApiOperation({
    summary: 'Create a guide',
    description:
      'Author+. `category` must be an existing category, in any case (the guide keeps the category’s spelling); ' +
      '`title` defaults to "<category> <subject> ' +
      '<Type>". Parts and tools name ITEM wiki pages, created (from `summary`, `url`) when missing. `image` must be in ' +
      'the author’s media manager and new `documents` in the caller’s (else 422 on that field). `author`: Admin only ' +
      '(403 for anyone else, whatever the value). Flags must be GUIDE_FLAGS the caller holds the privilege of (403 otherwise); a ' +
      'guide created private gets GUIDE_IN_PROGRESS automatically, and making a guide public removes it. ' +
      '`prerequisite_releases` pins prerequisites to a release ({guideid, releaseid}; releaseid null: the newest ' +
      'released release); each guideid must be one of `prerequisites` and each releaseid a released release of ' +
      'it (422 otherwise). 201 with the guide detail.',
  })
  @ApiCreatedResponse({ type: GuideDetailDto })
  create(@Body() body: CreateGuideDto, @CurrentUser() caller: AuthenticatedUser): Promise<JsonText<GuideDetailDto>> {
    return this.writer.create(body, caller);
  }

  @Patch(':guideid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Versioned()
  @ApiOperation({
    summary: 'Edit a guide',
    description:
      'The caller must be able to edit the guide (author, granted users and teams, Moderator+). Every rule of the ' +
      'create body applies; `author` (the new owner) is Admin only: anyone else gets 403 and nothing changes. `revisionid` is the newest revision (`head_revisionid`). With a `langid` other than the ' +
      'source language only title, summary, introduction and conclusion may be sent: they create or change that ' +
      'translation (its revisionid, or the source one while it does not exist); step text is translated through ' +
      'PATCH /guides/{guideid}/steps/{stepid} with the same `langid`. Values equal to the stored ones ' +
      'create no revision. Saves by Moderator+ or the author are patrolled; others wait for patrol (reads keep ' +
      'showing the patrolled revision). Answers the newest version, prerequisite steps not inlined.',
  })
  @ApiOkResponse({ type: GuideDetailDto })
  update(
    @GuideId() guideid: number,
    @Body() body: UpdateGuideDto,
    @RevisionId() revisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    return this.writer.update(guideid, body, revisionid, caller);
  }

  @Delete(':guideid')
  @ApiErrors(403, 404, 422)
  @HttpCode(204)
  @Authenticated()
  @Versioned()
  @ApiOperation({
    summary: 'Delete a guide',
    description: 'Soft delete by its author or a Moderator+ (403 otherwise); reads then answer 404. Restorable.',
  })
  @ApiNoContentResponse()
  async remove(
    @GuideId() guideid: number,
    @RevisionId() revisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<void> {
    await this.writer.remove(guideid, revisionid, caller);
  }

  @Post(':guideid/:langid/restore')
  @ApiErrors(403, 404)
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Restore a deleted guide',
    description:
      'By its author or a Moderator+. `langid` must be one of the guide’s languages (404 otherwise). Restoring a ' +
      'guide that is not deleted changes nothing. Takes no revisionid. Answers the guide in that language.',
  })
  @ApiOkResponse({ type: GuideDetailDto })
  restore(
    @GuideId() guideid: number,
    @Param('langid') langid: string,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    return this.writer.restore(guideid, langid, caller);
  }

  @Put(':guideid/public')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Versioned()
  @ApiOperation({
    summary: 'Make a guide public',
    description:
      'A new revision with public true (none when already public); removes GUIDE_IN_PROGRESS. Publishing is an edit: ' +
      'the author, users and teams granted on the guide, and Moderator+ may do it; others 403 (404 when ' +
      'they may not read the guide).',
  })
  @ApiOkResponse({ type: GuideDetailDto })
  publish(
    @GuideId() guideid: number,
    @RevisionId() revisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    return this.writer.setPublic(guideid, true, revisionid, caller);
  }

  @Delete(':guideid/public')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Versioned()
  @ApiOperation({
    summary: 'Make a guide private',
    description: 'A new revision with public false (none when already private).',
  })
  @ApiOkResponse({ type: GuideDetailDto })
  unpublish(
    @GuideId() guideid: number,
    @RevisionId() revisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    return this.writer.setPublic(guideid, false, revisionid, caller);
  }
}
