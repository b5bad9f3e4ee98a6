import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound } from '../../common/http/api-errors';
import { DocumentRegistry, type DocType } from '../../platform/documents/document-registry';
import type { UserLightColumns } from '../users/entities/user.entity';
import { toUserLight } from '../users/user.mapper';
import { UsersService } from '../users/users.service';
import type { ReleaseDto, ReleaseListDto } from './dto/release-response.dto';
import type { DocumentReleasesQueryDto, GuideReleasesQueryDto } from './dto/release-query.dto';
import type { ReleaseEntity } from './entities/release.entity';
import { toReleaseDto } from './release.mapper';
import { ReleasesRepository, type ReleaseRow } from './releases.repository';

/** What a release's caller may see of it (docs/enterprise/overview.md): readers `released` only, editors all. */
export interface ReleaseAccess {
  release: ReleaseEntity;
  editor: boolean;
}

/** Reads: R1, R2, single releases, and the Release bodies every write answers with. */
@Injectable()
export class ReleaseViewsService {
  constructor(
    private readonly releases: ReleasesRepository,
    private readonly documents: DocumentRegistry,
    private readonly users: UsersService,
  ) {}

  /** R1: guide releases the caller may see, in one statement for the page plus the creators' teams and avatars. */
  async guideReleases(query: GuideReleasesQueryDto, caller: AuthenticatedUser): Promise<ReleaseListDto> {
    const access = this.documents.of('GUIDE').accessSql(caller, 'r.docid');
    const rows = await this.releases.page({
      doctype: 'GUIDE',
      docid: query.guideid,
      status: query.status,
      type: query.type,
      visible: {
        sql: `${access.editable} OR (r.status = 'released' AND ${access.readable})`,
        params: access.params,
        ...(access.editableIds ? { split: { editableIds: access.editableIds, readable: access.readable } } : {}),
      },
      order: query.order,
      offset: query.offset,
      limit: query.limit,
    });
    return { releases: await this.toDtos(rows) };
  }

  /** R2: one document's releases; 404 when the caller may not read it. */
  async documentReleases(
    doctype: DocType,
    docid: number,
    query: DocumentReleasesQueryDto,
    caller: AuthenticatedUser,
  ): Promise<ReleaseListDto> {
    // Readable and editable in one statement (the whole list answers in at most four).
    const access = this.documents.of(doctype).accessSql(caller, ':acc_docid');
    const [readable, editor] = await this.releases.evaluate([access.readable, access.editable], {
      ...access.params,
      acc_docid: docid,
    });
    if (!readable) throw notFound(doctype === 'GUIDE' ? 'Guide' : 'Wiki');
    if (!editor && query.status && query.status !== 'released') return { releases: [] };
    const rows = await this.releases.page({
      doctype,
      docid,
      status: editor ? query.status : 'released',
      order: query.order,
      offset: query.offset,
      limit: query.limit,
    });
    return { releases: await this.toDtos(rows) };
  }

  /**
   * A release of this doctype the caller may see, and whether they edit its document; 404 otherwise
   * (unknown, the other doctype, an unreadable document, or not `released` for a reader).
   */
  async visible(doctype: DocType, releaseid: number, caller: AuthenticatedUser): Promise<ReleaseAccess> {
    const release = await this.releases.findById(releaseid);
    if (!release || release.doctype !== doctype) throw notFound('Release');
    const provider = this.documents.of(doctype);
    const [readable, editable] = await Promise.all([
      provider.readable(caller, [release.docid]),
      provider.editable(caller, [release.docid]),
    ]);
    const editor = editable.has(release.docid);
    if (!readable.has(release.docid) || (!editor && release.status !== 'released')) throw notFound('Release');
    return { release, editor };
  }

  async one(releaseid: number): Promise<ReleaseDto> {
    const [dto] = await this.many([releaseid]);
    if (!dto) throw notFound('Release');
    return dto;
  }

  /** Release bodies in the given order (one statement plus the creators' teams and avatars). */
  async many(releaseids: number[]): Promise<ReleaseDto[]> {
    return this.toDtos(await this.releases.rowsByIds(releaseids));
  }

  private async toDtos(rows: ReleaseRow[]): Promise<ReleaseDto[]> {
    const users = rows.map(({ release, user }) => user ?? missingUser(release.userid));
    const ctx = await this.users.context(users);
    return rows.map((row, i) => toReleaseDto(row.release, toUserLight(users[i], ctx)));
  }
}

/** A creator whose account row is gone still shows as a user object. */
const missingUser = (userid: number): UserLightColumns => ({
  userid,
  username: 'Unknown',
  uniqueUsername: null,
  joinDate: 0,
  imageid: null,
  reputation: 0,
});
