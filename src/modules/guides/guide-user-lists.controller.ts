import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { PaginationQueryDto } from '../../common/validation/pagination.dto';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { GuideSummaryDto } from './dto/guide-response.dto';
import { LangBodyDto, UserGuidesQueryDto } from './dto/guide-query.dto';
import { GuideUserListsService } from './guide-user-lists.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { GuideId } from './guide-id.param';

const UserId = () => Param('userid', new ParseIdPipe('User'));

@ApiTags('Guides')
@Controller()
export class GuideUserListsController {
  constructor(private readonly lists: GuideUserListsService) {}

  @Get('user/guides')
  @ApiErrors(422)
  @Authenticated()
  @ApiOperation({
    summary: 'Guides the current user contributed to',
    description: 'Authored or with a saved revision, by guideid; private ones included when readable.',
  })
  @ApiOkResponse({ type: [GuideSummaryDto] })
  myGuides(@Query() query: UserGuidesQueryDto, @CurrentUser() caller: AuthenticatedUser): Promise<GuideSummaryDto[]> {
    return this.lists.contributions(caller.userid, query, caller, false);
  }

  @Get('users/:userid/guides')
  @ApiErrors(404, 422)
  @Public()
  @ApiOperation({
    summary: 'Guides a user contributed to',
    description: 'Only guides the caller may read. Unknown user: 404. Pagination is applied before that filter.',
  })
  @ApiOkResponse({ type: [GuideSummaryDto] })
  userGuides(
    @UserId() userid: number,
    @Query() query: UserGuidesQueryDto,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<GuideSummaryDto[]> {
    return this.lists.contributions(userid, query, caller, true);
  }

  @Get('user/completions')
  @ApiErrors(422)
  @Authenticated()
  @ApiOperation({ summary: 'Guides the current user completed', description: 'By guideid.' })
  @ApiOkResponse({ type: [GuideSummaryDto] })
  myCompletions(
    @Query() query: PaginationQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<GuideSummaryDto[]> {
    return this.lists.marked('completion', caller.userid, query, caller, false);
  }

  @Get('users/:userid/completions')
  @ApiErrors(404, 422)
  @Public()
  @ApiOperation({ summary: 'Guides a user completed', description: 'Readable ones, by guideid. Unknown user: 404.' })
  @ApiOkResponse({ type: [GuideSummaryDto] })
  userCompletions(
    @UserId() userid: number,
    @Query() query: PaginationQueryDto,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<GuideSummaryDto[]> {
    return this.lists.marked('completion', userid, query, caller, true);
  }

  @Put('guides/:guideid/completed')
  @ApiErrors(404, 422)
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({
    summary: 'Mark a guide completed',
    description: 'Once per user (again: no change). `langid` must be a language of the guide. 204.',
  })
  @ApiNoContentResponse()
  async complete(
    @GuideId() guideid: number,
    @Body() body: LangBodyDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<void> {
    await this.lists.mark('completion', guideid, body.langid, caller);
  }

  @Delete('guides/:guideid/completed')
  @ApiErrors(404)
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({ summary: 'Unmark a guide completed', description: '204 whether or not it was marked.' })
  @ApiNoContentResponse()
  async uncomplete(@GuideId() guideid: number, @CurrentUser() caller: AuthenticatedUser): Promise<void> {
    await this.lists.unmark('completion', guideid, caller);
  }

  @Get('user/favorites/guides')
  @ApiErrors(422)
  @Authenticated()
  @ApiOperation({ summary: 'The current user’s favorite guides', description: 'Newest favorite first.' })
  @ApiOkResponse({ type: [GuideSummaryDto] })
  myFavorites(
    @Query() query: PaginationQueryDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<GuideSummaryDto[]> {
    return this.lists.marked('favorite', caller.userid, query, caller, false);
  }

  @Get('users/:userid/favorites/guides')
  @ApiErrors(404, 422)
  @Public()
  @ApiOperation({
    summary: 'A user’s favorite guides',
    description: 'Readable ones, newest favorite first. Unknown user: 404.',
  })
  @ApiOkResponse({ type: [GuideSummaryDto] })
  userFavorites(
    @UserId() userid: number,
    @Query() query: PaginationQueryDto,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<GuideSummaryDto[]> {
    return this.lists.marked('favorite', userid, query, caller, true);
  }

  @Put('user/favorites/guides/:guideid')
  @ApiErrors(404, 422)
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({ summary: 'Favorite a guide', description: 'Once per user (again: no change). 204.' })
  @ApiNoContentResponse()
  async favorite(
    @GuideId() guideid: number,
    @Body() body: LangBodyDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<void> {
    await this.lists.mark('favorite', guideid, body.langid, caller);
  }

  @Delete('user/favorites/guides/:guideid')
  @ApiErrors(404)
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({ summary: 'Unfavorite a guide', description: '204 whether or not it was a favorite.' })
  @ApiNoContentResponse()
  async unfavorite(@GuideId() guideid: number, @CurrentUser() caller: AuthenticatedUser): Promise<void> {
    await this.lists.unmark('favorite', guideid, caller);
  }
}
