import { Body, Controller, Get, Param, Put, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Revalidated } from '../../../common/http/conditional-get';
import { responseMode } from '../../../common/http/response-mode';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { ParseIdPipe } from '../../../common/validation/parse-id.pipe';
import { DocumentObjectDto } from '../../media/dto/document-object.dto';
import { CategoryParentBodyDto } from '../dto/wiki-body.dto';
import { CategoriesQueryDto, CategoryTreeQueryDto } from '../dto/wiki-query.dto';
import { CategoryIdentificationDto, WikiDetailDto, WikiLightDto } from '../dto/wiki-response.dto';
import { CategoriesService, type CategoryTree } from './categories.service';
import { ApiErrors } from '../../../common/openapi/api-error-responses';

const TitleParam = () =>
  ApiParam({ name: 'title', description: 'URL-encoded category title; underscores stand for spaces.' });

@ApiTags('Categories')
@Controller('wikis/CATEGORY')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get(':title/children')
  @ApiErrors(404, 422)
  @Public()
  @TitleParam()
  @ApiOperation({
    summary: 'Child categories',
    description:
      'Light wiki objects of the live child categories, by title; `langid` as on lists. Unknown or deleted category: 404.',
  })
  @ApiOkResponse({ type: WikiLightDto, isArray: true })
  children(@Param('title') title: string, @Query() query: CategoryTreeQueryDto): Promise<WikiLightDto[]> {
    return this.categories.children(title, query.langid);
  }

  @Put(':title/parent')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @TitleParam()
  @ApiOperation({
    summary: 'Move a category',
    description:
      'Moderator+. Body `{"parent": "<title>"}` or `{"parent": null}` for the top level. The parent must be a live ' +
      'category (422) and neither the category itself nor one below it (422: moves never create a cycle). A move is ' +
      'structural, not a content revision: no revisionid. Answers the category detail.',
  })
  @ApiOkResponse({ type: WikiDetailDto })
  move(
    @Param('title') title: string,
    @Body() body: CategoryParentBodyDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<WikiDetailDto> {
    return this.categories.move(title, body.parent, caller);
  }

  @Get(':title/identification')
  @ApiErrors(404, 422)
  @Public()
  @TitleParam()
  @ApiOperation({
    summary: "A category's identification section",
    description:
      'How to tell the device apart: the section of the contents under the heading "Identification" (any level, ' +
      'case-insensitive; up to the next heading of the same or a higher level) as raw, rendered and JSON, plus the ' +
      "category's image and info facts. Empty strings / empty document when the contents have no such section.",
  })
  @ApiOkResponse({ type: CategoryIdentificationDto })
  identification(
    @Param('title') title: string,
    @Query() query: CategoryTreeQueryDto,
  ): Promise<CategoryIdentificationDto> {
    return this.categories.identification(title, query.langid);
  }

  @Get(':wikiid/documents')
  @ApiErrors(404)
  @Public()
  @ApiParam({ name: 'wikiid', type: 'integer' })
  @ApiOperation({
    summary: "A category's documents",
    description:
      'The Document objects attached to the category, in their order. Unknown id, not a category, or deleted: 404.',
  })
  @ApiOkResponse({ type: DocumentObjectDto, isArray: true })
  documents(@Param('wikiid', new ParseIdPipe('Category')) wikiid: number): Promise<DocumentObjectDto[]> {
    return this.categories.documents(wikiid);
  }
}

@ApiTags('Categories')
@Controller('categories')
export class CategoryTreeController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'Category hierarchy (iFixit)',
    description:
      'The same tree as `GET /wikis/CATEGORY?display=hierarchy` (default options but `includeStubs`), without display ' +
      'titles: an object mapping top-level category titles to subtrees, `null` for a category without children; `{}` ' +
      'when empty. Categories flagged WIKI_STUB (with everything below them) are left out unless `includeStubs`.',
  })
  @ApiOkResponse({
    schema: { type: 'object', additionalProperties: true, example: { Electronics: { Phone: { iPhone: null } } } },
  })
  @Revalidated()
  async tree(
    @Query() query: CategoriesQueryDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CategoryTree | string> {
    const options = { includeStubs: query.includeStubs };
    if (responseMode(request).pretty) return (await this.categories.hierarchy(options)).hierarchy as CategoryTree;
    const text = await this.categories.hierarchyText(options);
    void reply.type('application/json; charset=utf-8');
    return text.tree;
  }
}
