import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public } from '../../common/auth/auth-rule.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { CommentsService } from './comments.service';
import { CommentDto, CreateCommentDto, ListCommentsQueryDto, UpdateCommentDto } from './dto/comment.dto';
import { ApiErrors } from '../../common/openapi/api-error-responses';

@ApiTags('Comments')
@Controller('comments')
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Get()
  @ApiErrors(422)
  @Public()
  @ApiOperation({
    summary: 'List comments',
    description:
      'Public top-level comments by commentid, each with its public replies; comments on documents the caller may not read are left out.',
  })
  @ApiOkResponse({ type: [CommentDto] })
  list(@Query() query: ListCommentsQueryDto, @CurrentUser() caller?: AuthenticatedUser): Promise<CommentDto[]> {
    return this.comments.list(query, caller);
  }

  @Post(':context/:contextid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiParam({ name: 'context', enum: ['guide', 'step'] })
  @ApiOperation({
    summary: 'Comment on a guide or step',
    description:
      'For `step`, contextid is the stepid. Unknown context: 422; unknown or unreadable document: 404. `parentid` must be a top-level comment of the same document (replies are one level deep). 201 with the comment.',
  })
  @ApiCreatedResponse({ type: CommentDto })
  create(
    @Param('context') context: string,
    @Param('contextid', new ParseIdPipe('Document')) contextid: number,
    @Body() body: CreateCommentDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<CommentDto> {
    return this.comments.create(context, contextid, body, caller);
  }

  @Get(':commentid')
  @ApiErrors(404)
  @Public()
  @ApiOperation({
    summary: 'A comment with its replies',
    description: 'Deleted comments stay readable with status `deleted`. 404 when its document is not readable.',
  })
  @ApiOkResponse({ type: CommentDto })
  get(
    @Param('commentid', new ParseIdPipe('Comment')) commentid: number,
    @CurrentUser() caller?: AuthenticatedUser,
  ): Promise<CommentDto> {
    return this.comments.get(commentid, caller);
  }

  @Patch(':commentid')
  @ApiErrors(403, 404, 422)
  @Authenticated()
  @ApiOperation({
    summary: 'Edit a comment',
    description:
      'By its author within 5 minutes of writing it (as iFixit), or an Admin at any time; 403 otherwise. Body: `text` only.',
  })
  @ApiOkResponse({ type: CommentDto })
  update(
    @Param('commentid', new ParseIdPipe('Comment')) commentid: number,
    @Body() body: UpdateCommentDto,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<CommentDto> {
    return this.comments.update(commentid, body, caller);
  }

  @Delete(':commentid')
  @ApiErrors(403, 404)
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({
    summary: 'Delete a comment',
    description:
      'By its author or a Moderator+ (iFixit allows only Admins besides the author; moderators moderate here). Soft: the comment and its replies get status `deleted`.',
  })
  @ApiNoContentResponse()
  async remove(
    @Param('commentid', new ParseIdPipe('Comment')) commentid: number,
    @CurrentUser() caller: AuthenticatedUser,
  ): Promise<void> {
    await this.comments.remove(commentid, caller);
  }
}
