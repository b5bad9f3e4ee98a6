import { JsonText } from '../../common/http/json-text';
import { Body, Controller, Delete, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { GuideDetailDto } from './dto/guide-response.dto';
import { TagBodyDto } from './dto/guide-query.dto';
import { GuideTagsService } from './guide-tags.service';
import { GuideId } from './guide-id.param';

@ApiTags('Tags')
@Controller()
export class GuideTagsController {
  constructor(private readonly guideTags: GuideTagsService) {}

  @Get('guides/:guideid/tags')
  @ApiErrors(404)
  @Public()
  @ApiOperation({ summary: 'Tags of a guide', description: 'Alphabetical. Unreadable or unknown guide: 404.' })
  @ApiOkResponse({ type: [String] })
  tags(@GuideId() guideid: number, @CurrentUser() caller?: AuthenticatedUser): Promise<string[]> {
    return this.guideTags.tagsOf(guideid, caller);
  }

  @Put('guides/:guideid/tag')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Tag a guide',
    description:
      'By those who may edit the guide. Creates the tag if new. No revision, no revisionid. Answers the guide.',
  })
  @ApiOkResponse({ type: GuideDetailDto })
  addTag(
    @GuideId() guideid: number,
    @Body() body: TagBodyDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    return this.guideTags.changeTag(guideid, body.tag, 'add', caller);
  }

  @Delete('guides/:guideid/tag')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Untag a guide',
    description: 'A tag the guide does not have (case-insensitive): 404. Answers the guide.',
  })
  @ApiOkResponse({ type: GuideDetailDto })
  removeTag(
    @GuideId() guideid: number,
    @Body() body: TagBodyDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<JsonText<GuideDetailDto>> {
    return this.guideTags.changeTag(guideid, body.tag, 'remove', caller);
  }
}
