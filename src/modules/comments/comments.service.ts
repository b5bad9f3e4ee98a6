import { callerHas, isAdmin } from '../../common/auth/privileges';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { InsufficientPrivilegesException, notFound, unprocessable } from '../../common/http/api-errors';
import { nowSeconds } from '../../database/columns';
import { TransactionService } from '../../database/transaction.service';
import type { UserLightDto } from '../users/dto/user-response.dto';
import { UsersService, type KnownUser } from '../users/users.service';
import { WikiTextService } from '../wikitext/wikitext.service';
import type { CommentContext, CommentContextHandler } from './comment-contexts';
import { CommentsRepository } from './comments.repository';
import type {
  CommentDto,
  CommentReplyDto,
  CreateCommentDto,
  ListCommentsQueryDto,
  UpdateCommentDto,
} from './dto/comment.dto';
import type { CommentEntity } from './entities/comment.entity';

/** iFixit: an author may edit a comment for 5 minutes after writing it; Admins at any time. */
export const EDIT_WINDOW_SECONDS = 5 * 60;

@Injectable()
export class CommentsService {
  private readonly contexts = new Map<string, CommentContextHandler>();

  constructor(
    private readonly comments: CommentsRepository,
    private readonly users: UsersService,
    private readonly wikiText: WikiTextService,
    private readonly transactions: TransactionService,
  ) {}

  registerContext(context: CommentContext, handler: CommentContextHandler): void {
    this.contexts.set(context, handler);
  }

  private handler(context: string): CommentContextHandler {
    const handler = this.contexts.get(context);
    if (!handler) throw unprocessable(`context must be one of ${[...this.contexts.keys()].join(', ')}`, 'context');
    return handler;
  }

  /** Public comments of many documents, replies nested, for embedding (one query plus authors). */
  async commentsFor(context: CommentContext, contextids: number[]): Promise<Map<number, CommentDto[]>> {
    const { comments } = await this.commentsForMany([{ context, contextids }]);
    return new Map(contextids.map((id) => [id, comments.get(`${context}:${id}`) ?? []]));
  }

  /** See CommentsRepository.publicExistSql. */
  publicExistSql(
    context: CommentContext,
    docidSql: string,
    itemContext: CommentContext,
    items: { from: string; id: string; where: string },
  ): string {
    return this.comments.publicExistSql(context, docidSql, itemContext, items);
  }

  /**
   * Public comments of several contexts at once (one query), with the light users of their authors and
   * of `alsoUsers` loaded in the same batch — so a guide detail pays once for comments and authors.
   * Comments are keyed by `${context}:${contextid}`. `knownUsers`: users already read (see UsersService.lightUsers).
   */
  async commentsForMany(
    requests: { context: CommentContext; contextids: number[] }[],
    alsoUsers: number[] = [],
    knownUsers: KnownUser[] = [],
  ): Promise<{ comments: Map<string, CommentDto[]>; users: Map<number, UserLightDto> }> {
    const rows = await this.comments.publicForMany(requests);
    const { dtos, users } = await this.build(
      rows.filter((r) => r.parentid === null),
      rows.filter((r) => r.parentid !== null),
      alsoUsers,
      knownUsers,
    );
    const comments = new Map<string, CommentDto[]>();
    for (const request of requests) for (const id of request.contextids) comments.set(`${request.context}:${id}`, []);
    for (const dto of dtos) comments.get(`${dto.context}:${dto.contextid}`)?.push(dto);
    return { comments, users };
  }

  async create(
    context: string,
    contextid: number,
    dto: CreateCommentDto,
    caller: AuthenticatedUser,
  ): Promise<CommentDto> {
    const described = await this.handler(context).assertReadable(caller, contextid);
    const commentid = await this.transactions.run(async () => {
      const now = nowSeconds();
      if (dto.parentid !== undefined) {
        const parent = await this.comments.findById(dto.parentid);
        const valid =
          parent &&
          parent.context === context &&
          parent.contextid === contextid &&
          parent.parentid === null &&
          parent.status === 'public';
        if (!valid) throw unprocessable('parentid must be a top-level comment on the same document', 'parentid');
        await this.comments.update(parent.commentid, { repliedDate: now });
      }
      const saved = await this.comments.insert({
        context,
        contextid,
        parentid: dto.parentid ?? null,
        userid: caller.userid,
        title: (described && described.title) || '',
        textRaw: dto.text,
        status: 'public',
        langid: dto.langid ?? null,
        createdDate: now,
        modifiedDate: 0,
        repliedDate: 0,
      });
      return saved.commentid;
    });
    return this.get(commentid, caller);
  }

  /** A comment (deleted ones too) with its replies; 404 when its document is not readable. */
  async get(commentid: number, caller?: AuthenticatedUser): Promise<CommentDto> {
    const comment = await this.readable(commentid, caller);
    const replies = comment.parentid === null ? await this.comments.repliesTo([comment.commentid], false) : [];
    const [dto] = await this.toDtos([comment], replies);
    return dto;
  }

  async update(commentid: number, dto: UpdateCommentDto, caller: AuthenticatedUser): Promise<CommentDto> {
    const comment = await this.readable(commentid, caller);
    if (!isAdmin(caller)) {
      if (comment.userid !== caller.userid)
        throw new InsufficientPrivilegesException(['Admin'], 'Only the author may edit this comment');
      if (nowSeconds() - comment.createdDate > EDIT_WINDOW_SECONDS) {
        throw new InsufficientPrivilegesException(
          ['Admin'],
          'Comments can be edited for 5 minutes after they are written',
        );
      }
    }
    if (comment.status !== 'public') throw unprocessable('A deleted comment cannot be edited', 'text');
    if (dto.text !== comment.textRaw)
      await this.comments.update(commentid, { textRaw: dto.text, modifiedDate: nowSeconds() });
    return this.get(commentid, caller);
  }

  /** By the author or a Moderator+; soft: the comment and its replies become status deleted. */
  async remove(commentid: number, caller: AuthenticatedUser): Promise<void> {
    const comment = await this.readable(commentid, caller);
    if (comment.userid !== caller.userid && !callerHas(caller, 'Moderator')) {
      throw new InsufficientPrivilegesException(
        ['Admin', 'Moderator'],
        'Only the author or a Moderator may delete this comment',
      );
    }
    await this.transactions.run(() => this.comments.markDeleted(commentid, nowSeconds()));
  }

  /** Public top-level comments with their public replies, leaving out documents the caller may not read. */
  async list(query: ListCommentsQueryDto, caller?: AuthenticatedUser): Promise<CommentDto[]> {
    const page = await this.comments.listTopLevel(query);
    const readable = await this.readableKeys(page, caller);
    const visible = page.filter((c) => readable.has(`${c.context}:${c.contextid}`));
    const replies = await this.comments.repliesTo(
      visible.map((c) => c.commentid),
      true,
    );
    return this.toDtos(visible, replies);
  }

  private async readable(commentid: number, caller?: AuthenticatedUser): Promise<CommentEntity> {
    const comment = await this.comments.findById(commentid);
    if (!comment) throw notFound('Comment');
    const handler = this.contexts.get(comment.context);
    if (!handler) throw notFound('Comment');
    await handler.assertReadable(caller, comment.contextid).catch(() => {
      throw notFound('Comment');
    });
    return comment;
  }

  private async readableKeys(comments: CommentEntity[], caller?: AuthenticatedUser): Promise<Set<string>> {
    const keys = new Set<string>();
    const byContext = new Map<string, number[]>();
    for (const c of comments) byContext.set(c.context, [...(byContext.get(c.context) ?? []), c.contextid]);
    for (const [context, ids] of byContext) {
      const handler = this.contexts.get(context);
      if (!handler) continue;
      const unique = [...new Set(ids)];
      let allowed: Set<number>;
      if (handler.filterReadable) {
        allowed = await handler.filterReadable(caller, unique);
      } else {
        const checks = await Promise.all(
          unique.map((id) =>
            handler.assertReadable(caller, id).then(
              () => true,
              () => false,
            ),
          ),
        );
        allowed = new Set(unique.filter((_id, i) => checks[i]));
      }
      for (const id of allowed) keys.add(`${context}:${id}`);
    }
    return keys;
  }

  private async toDtos(top: CommentEntity[], replies: CommentEntity[]): Promise<CommentDto[]> {
    return (await this.build(top, replies, [])).dtos;
  }

  private async build(
    top: CommentEntity[],
    replies: CommentEntity[],
    alsoUsers: number[],
    knownUsers: KnownUser[] = [],
  ): Promise<{ dtos: CommentDto[]; users: Map<number, UserLightDto> }> {
    const all = [...top, ...replies];
    const [authors, rendered] = await Promise.all([
      this.users.lightUsers([...all.map((c) => c.userid), ...alsoUsers], knownUsers),
      this.wikiText.renderMany(all.map((c) => c.textRaw)),
    ]);
    const html = new Map(all.map((c, i) => [c.commentid, rendered[i].rendered]));
    const reply = (c: CommentEntity): CommentReplyDto => ({
      commentid: c.commentid,
      locale: c.langid,
      context: c.context,
      contextid: c.contextid,
      parentid: c.parentid,
      author: authors.get(c.userid) as UserLightDto,
      title: c.title,
      text_raw: c.textRaw,
      text_rendered: html.get(c.commentid) ?? '',
      rating: 0,
      date: c.createdDate,
      modified_date: c.modifiedDate,
      replied_date: c.repliedDate,
      status: c.status,
    });
    const dtos = top.map((c) => ({
      ...reply(c),
      replies: replies.filter((r) => r.parentid === c.commentid).map(reply),
    }));
    return { dtos, users: authors };
  }
}
