import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { PositiveIntParamPipe } from './dto/id-param.pipe';
import { ViewHistoryEntryDto } from './dto/view-history-entry.dto';
import { ViewHistoryQueryDto } from './dto/view-history-query.dto';
import { ViewHistoryService } from './view-history.service';
import { ApiErrors } from '../../common/openapi/api-error-responses';

const RECORDING =
  'A view is recorded when an authenticated user reads a guide or a wiki (asynchronously; repeated reads of ' +
  'the same document by the same user within 60 seconds count once). Entries are newest first; `start_date` ' +
  'and `end_date` are UNIX seconds, inclusive; `offset`/`limit` page through them.';

@ApiTags('View history')
@Controller('user_view_history')
export class ViewHistoryController {
  constructor(private readonly history: ViewHistoryService) {}

  @Get('user/:userid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: "A user's document view history",
    description: `That user or an Admin (others 403; unknown user 404). ${RECORDING}`,
  })
  @ApiParam({ name: 'userid', type: 'integer' })
  @ApiOkResponse({ type: ViewHistoryEntryDto, isArray: true })
  forUser(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('userid', new PositiveIntParamPipe('userid')) userid: number,
    @Query() query: ViewHistoryQueryDto,
  ): Promise<ViewHistoryEntryDto[]> {
    return this.history.forUser(caller, userid, query);
  }

  @Get(':doc_type/:docid')
  @ApiErrors(403, 404, 422)
  @Authenticated('Moderator')
  @ApiOperation({
    summary: "A guide's or wiki's view history",
    description:
      `Moderator+. \`doc_type\` is \`guide\` or \`wiki\` (case-insensitive; anything else 422); a wiki's \`docid\` ` +
      `is its wikiid. A document never viewed answers an empty array. ${RECORDING}`,
  })
  @ApiParam({ name: 'doc_type', enum: ['guide', 'wiki'] })
  @ApiParam({ name: 'docid', type: 'integer' })
  @ApiOkResponse({ type: ViewHistoryEntryDto, isArray: true })
  forDocument(
    @Param('doc_type') docType: string,
    @Param('docid', new PositiveIntParamPipe('docid')) docid: number,
    @Query() query: ViewHistoryQueryDto,
  ): Promise<ViewHistoryEntryDto[]> {
    return this.history.forDocument(docType, docid, query);
  }
}
