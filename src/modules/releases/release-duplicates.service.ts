import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ApiException, unprocessable } from '../../common/http/api-errors';
import { TransactionService } from '../../database/transaction.service';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import type { DuplicateReleasesDto } from './dto/release-body.dto';
import type { ReleaseConflictDto, ReleaseListDto } from './dto/release-response.dto';
import { ReleaseViewsService } from './release-views.service';
import { ReleasesService } from './releases.service';

/**
 * R6: POST /guides/duplicateReleases. Releases each guide's current revision with the source release's
 * type, title and notes, each through its own approval, all in one transaction (all or nothing); no
 * history is copied.
 */
@Injectable()
export class ReleaseDuplicatesService {
  constructor(
    private readonly releases: ReleasesService,
    private readonly views: ReleaseViewsService,
    private readonly documents: DocumentRegistry,
    private readonly transactions: TransactionService,
  ) {}

  async duplicate(body: DuplicateReleasesDto, caller: AuthenticatedUser): Promise<ReleaseListDto> {
    const seen = new Set<number>();
    body.guideids.forEach((guideid, index) => {
      if (seen.has(guideid)) throw unprocessable(`guideid ${guideid} is repeated`, 'guideids', index);
      seen.add(guideid);
    });
    const { release: source } = await this.views.visible('GUIDE', body.releaseid, caller);
    const guides = this.documents.of('GUIDE');
    const [found, readable, editable] = await Promise.all([
      guides.find(body.guideids),
      guides.readable(caller, body.guideids),
      guides.editable(caller, body.guideids),
    ]);
    const gone = body.guideids.find((id) => !found.has(id) || !readable.has(id));
    if (gone !== undefined) throw new ApiException(HttpStatus.NOT_FOUND, `Guide ${gone} not found`);
    const denied = body.guideids.find((id) => !editable.has(id));
    if (denied !== undefined) {
      throw new ApiException(HttpStatus.FORBIDDEN, `Only editors of every guide may do this (not of guide ${denied})`);
    }
    const created = await this.transactions.run(async (tx) => {
      const ids: number[] = [];
      const conflicts: ReleaseConflictDto[] = [];
      for (const guideid of body.guideids) {
        const doc = found.get(guideid)!;
        const outcome = await this.releases.createLocked(
          tx,
          {
            doc,
            langid: doc.langid,
            revisionid: doc.revisionid,
            type: source.type,
            title: source.title,
            notes: source.notes,
          },
          caller,
        );
        if ('blocked' in outcome) conflicts.push({ guideid, releaseid: outcome.blocked.releaseid });
        else ids.push(outcome.created);
      }
      // Nothing is kept when one guide is blocked: the error rolls the whole call back.
      if (conflicts.length) {
        throw new HttpException(
          { error: true, message: 'A guide has a pending release', conflicts },
          HttpStatus.CONFLICT,
        );
      }
      return ids;
    });
    return { releases: await this.views.many(created) };
  }
}
