import { Body, Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { WikiTagBodyDto } from './dto/wiki-body.dto';
import { WikiTaggedDetailDto } from './dto/wiki-response.dto';
import { WIKI_NAMESPACES } from './wiki-namespaces';
import { parseNamespace } from './wiki-reader.service';
import { WikisService } from './wikis.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';

@ApiTags('Tags')
@ApiParam({ name: 'namespace', enum: WIKI_NAMESPACES, description: 'Case-insensitive; an unknown namespace is a 422.' })
@ApiParam({ name: 'title', description: 'URL-encoded title; underscores stand for spaces.' })
@Controller('wikis/:namespace/:title')
export class WikiTagsController {
  constructor(private readonly wikis: WikisService) {}

  @Get('tags')
  @ApiErrors(404, 422)
  @Public()
  @ApiOperation({
    summary: "A wiki's tags",
    description: 'Sorted alphabetically (case-insensitive). Deleted wikis: 404.',
  })
  @ApiOkResponse({ type: String, isArray: true })
  tags(@Param('namespace') namespace: string, @Param('title') title: string): Promise<string[]> {
    return this.wikis.tagsOf(parseNamespace(namespace), title);
  }

  @Put('tag')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Tag a wiki',
    description:
      'Moderator+. The tag is created if needed (trimmed, at most 32 characters, matched case-insensitively). Tags are ' +
      'not content revisions: no revisionid. Answers the wiki detail plus url, fullUrl (same as url) and editUrl.',
  })
  @ApiOkResponse({ type: WikiTaggedDetailDto })
  addTag(
    @Param('namespace') namespace: string,
    @Param('title') title: string,
    @Body() body: WikiTagBodyDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<WikiTaggedDetailDto> {
    return this.wikis.addTag(parseNamespace(namespace), title, body.tag, caller);
  }

  @Delete('tag')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Remove a tag from a wiki',
    description:
      'Moderator+. 404 when the wiki does not carry the tag (compared case-insensitively). Answers the same shape as ' +
      'PUT …/tag: the wiki detail plus url, fullUrl and editUrl.',
  })
  @ApiOkResponse({ type: WikiTaggedDetailDto })
  removeTag(
    @Param('namespace') namespace: string,
    @Param('title') title: string,
    @Body() body: WikiTagBodyDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<WikiTaggedDetailDto> {
    return this.wikis.removeTag(parseNamespace(namespace), title, body.tag, caller);
  }
}
