import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Revalidated } from '../../common/http/conditional-get';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { unprocessable } from '../../common/http/api-errors';
import { responseMode, XmlResponse } from '../../common/http/response-mode';
import { RevisionId, Versioned } from '../../common/revisions/versioned.decorator';
import { CategoriesService, hierarchyJson } from './categories/categories.service';
import { CreateWikiDto, UpdateWikiDto } from './dto/wiki-body.dto';
import { WikiDetailQueryDto, WikiLangQueryDto, WikiListQueryDto, WikiRevertQueryDto } from './dto/wiki-query.dto';
import { CategoryHierarchyDto, WikiDetailDto, WikiLightDto } from './dto/wiki-response.dto';
import { WIKI_NAMESPACES } from './wiki-namespaces';
import { parseNamespace, WIKI_ANSWER_SOURCES, WikiReaderService } from './wiki-reader.service';
import { CachedResponse } from '../../platform/response-cache/cached-response';
import { WikiListService } from './wiki-list.service';
import { WikiWriterService } from './wiki-writer.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';

const NamespaceParam = () =>
  ApiParam({
    name: 'namespace',
    enum: WIKI_NAMESPACES,
    description: 'Case-insensitive; an unknown namespace is a 422.',
  });
const TitleParam = () =>
  ApiParam({
    name: 'title',
    description: 'URL-encoded title; underscores stand for spaces. Any case: the answer keeps the stored spelling.',
  });

@ApiTags('Wikis')
@ApiExtraModels(WikiLightDto, CategoryHierarchyDto)
@Controller('wikis')
export class WikisController {
  constructor(
    private readonly reader: WikiReaderService,
    private readonly writer: WikiWriterService,
    private readonly lists: WikiListService,
    private readonly categories: CategoriesService,
  ) {}

  @Post()
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Create a wiki',
    description:
      "Author+; a USER page also by its user, a TEAM page also by the team's members. The namespace decides which " +
      'body fields are accepted (NAMESPACE_RULES): CATEGORY contents, display_title, description, image, flags, parent, ' +
      'info, documents, repairability_score; ITEM contents, display_title, description, image, flags, info, suppliers; ' +
      'INFO and WIKI contents, display_title, description, image, flags; USER and TEAM contents, image (their title is ' +
      'the userid/teamid of an existing user/team and their display title is its name). Other fields: 422. ' +
      'Titles are unique per namespace whatever their case; underscores are stored as spaces; `.` and `..` are a 422 ' +
      '(no URL can address them); a duplicate (deleted wikis included: restore those with revert) is a 422. ' +
      '`parent` (CATEGORY) names an existing category; absent ' +
      'means top level. An `image` or a document that does not exist: 404; one not in your media manager: 403. ' +
      'The first revision is patrolled (the creator is the author). Answers the wiki detail.',
  })
  @ApiCreatedResponse({ type: WikiDetailDto })
  create(@Body() body: CreateWikiDto, @CurrentUser() caller: AuthenticatedUser): Promise<WikiDetailDto> {
    return this.writer.create(body, caller);
  }

  @Get(':namespace')
  @ApiErrors(422)
  @Public()
  @NamespaceParam()
  @ApiOperation({
    summary: 'List wikis of a namespace, or the category hierarchy',
    description:
      '`display=objects` (default): light wiki objects ordered by title, or with `modifiedSince` only wikis changed on ' +
      'or after it, newest change first; `display=titles`: a plain array of titles in the same order; ' +
      '`display=hierarchy` (CATEGORY only, else 422; pagination ignored): `{hierarchy, display_titles}`. ' +
      'Hierarchy: `requireGuides` keeps categories holding a public guide themselves or below them; stub categories ' +
      '(flag WIKI_STUB) and everything below them are left out unless `includeStubs`; `langid` uses the patrolled ' +
      'translated display titles of that language where they exist; `machineTranslateLangid` sends the display titles ' +
      'that have no human translation to the configured machine-translation provider — with none configured (the ' +
      'default) they stay in the source language. Deleted wikis are never listed. With `langid` each item is shown in ' +
      'that language when a patrolled translation exists, else in its source language. The hierarchy without ' +
      '`requireGuides` and `machineTranslateLangid` is kept by each instance and sent again while no category has ' +
      'changed through the API (rows changed directly in the database show after the next category write or a ' +
      'restart); every answer carries an `ETag` for conditional GETs.',
  })
  @ApiOkResponse({
    description: 'An empty list matches both array forms, hence anyOf.',
    schema: {
      anyOf: [
        { type: 'array', items: { $ref: getSchemaPath(WikiLightDto) } },
        { type: 'array', items: { type: 'string' } },
        { $ref: getSchemaPath(CategoryHierarchyDto) },
      ],
    },
  })
  @Revalidated()
  async list(
    @Param('namespace') namespace: string,
    @Query() query: WikiListQueryDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WikiLightDto[] | string[] | CategoryHierarchyDto | string> {
    const ns = parseNamespace(namespace);
    if (query.display === 'hierarchy') {
      if (ns !== 'CATEGORY') throw unprocessable('display=hierarchy is only available for CATEGORY', 'display');
      if (responseMode(request).pretty) return this.categories.hierarchy(query);
      // Plain JSON: the kept text while no category changed (the bytes JSON.stringify would give).
      const text = await this.categories.hierarchyText(query);
      void reply.type('application/json; charset=utf-8').header('etag', text.etag);
      return hierarchyJson(text);
    }
    return this.lists.list(ns, query);
  }

  @Get(':namespace/:title')
  @ApiErrors(404, 422)
  @Public()
  @NamespaceParam()
  @TitleParam()
  @XmlResponse('wiki')
  @CachedResponse({ family: 'answers', sources: WIKI_ANSWER_SOURCES, callers: 'anonymous' })
  @ApiOperation({
    summary: 'Wiki detail',
    description:
      'The newest patrolled revision; with `unpatrolled` (present, any value) the newest revision, for callers who may ' +
      'edit the wiki (anyone else gets the patrolled revision: unreviewed edits are for editors). With `langid` the ' +
      'patrolled translation in that language when one exists, else the source language (`langid` in the answer says ' +
      'which). `type=XML` answers XML for CATEGORY wikis only; for any other namespace it is a 422. Deleted wikis ' +
      'answer 404. CATEGORY adds parent, ancestors (closest first), children, guides (public ones) and documents. ' +
      "An authenticated read is recorded in the caller's view history.",
  })
  @ApiOkResponse({ type: WikiDetailDto })
  detail(
    @Param('namespace') namespace: string,
    @Param('title') title: string,
    @Query() query: WikiDetailQueryDto,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<WikiDetailDto> {
    const ns = parseNamespace(namespace);
    if (query.type === 'XML' && ns !== 'CATEGORY')
      throw unprocessable('type=XML is only available for CATEGORY wikis', 'type');
    return this.reader.detail(ns, title, { langid: query.langid, unpatrolled: query.unpatrolled }, caller);
  }

  @Patch(':namespace/:title')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Versioned()
  @NamespaceParam()
  @TitleParam()
  @ApiOperation({
    summary: 'Edit a wiki',
    description:
      "Author+; a USER page also by its user, a TEAM page also by the team's members (an Author may edit " +
      "another user's USER page or another team's TEAM page; unless the Author wrote the page, that revision is " +
      'unpatrolled, so readers keep the patrolled one until a Moderator+ saves). Fields as for create minus ' +
      '`parent` (use PUT …/parent); others are a 422. `revisionid` must be the newest revision of that language ' +
      '(the unpatrolled one when there is one), else 409 with the current wiki (newest revision) as the body. ' +
      '`langid` selects the language version; a language without one starts a translation, and then `revisionid` ' +
      "must be the source language's newest revision. A translation carries only contents, display_title and " +
      'description (other fields: 422). Values equal to the stored ones create no revision (a Moderator+ still ' +
      "patrols the newest one). A revision by a Moderator+ or by the wiki's author is patrolled; a Moderator+ save " +
      'also patrols what it builds on. Answers the wiki at its newest revision.',
  })
  @ApiOkResponse({ type: WikiDetailDto })
  update(
    @Param('namespace') namespace: string,
    @Param('title') title: string,
    @Body() body: UpdateWikiDto,
    @Query() query: WikiLangQueryDto,
    @RevisionId() revisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<WikiDetailDto> {
    return this.writer.update(parseNamespace(namespace), title, body, { langid: query.langid, revisionid }, caller);
  }

  @Delete(':namespace/:title')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @Versioned()
  @HttpCode(204)
  @NamespaceParam()
  @TitleParam()
  @ApiOperation({
    summary: 'Delete a wiki',
    description:
      'Moderator+. Soft: saves a revision with empty contents (restore with revert); the wiki then answers 404 and its ' +
      'title stays taken. `langid` other than the source language deletes only that translation. A CATEGORY with ' +
      'child categories cannot be deleted (422). Images stay attached so that a revert can restore them.',
  })
  @ApiNoContentResponse()
  async delete(
    @Param('namespace') namespace: string,
    @Param('title') title: string,
    @Query() query: WikiLangQueryDto,
    @RevisionId() revisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<void> {
    await this.writer.delete(parseNamespace(namespace), title, { langid: query.langid, revisionid }, caller);
  }

  @Post(':namespace/:title/revert')
  @ApiErrors(403, 404, 422)
  @HttpCode(200)
  @Authenticated()
  @Versioned()
  @NamespaceParam()
  @TitleParam()
  @ApiOperation({
    summary: 'Revert a wiki to an earlier revision',
    description:
      'Edit rights as for PATCH. Saves a new revision with the contents and fields of `to_revisionid` (an earlier, ' +
      'non-deleted revision of the same wiki and language other than the newest; else 422), keeping the current ' +
      'display title. Works on deleted wikis (it restores them; a category whose parent is deleted returns to the top ' +
      'level). `revisionid` must be the newest revision (409 otherwise). Answers the wiki at its newest revision.',
  })
  @ApiOkResponse({ type: WikiDetailDto })
  revert(
    @Param('namespace') namespace: string,
    @Param('title') title: string,
    @Query() query: WikiRevertQueryDto,
    @RevisionId() revisionid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<WikiDetailDto> {
    return this.writer.revert(
      parseNamespace(namespace),
      title,
      { langid: query.langid, revisionid, toRevisionid: query.to_revisionid },
      caller,
    );
  }
}
