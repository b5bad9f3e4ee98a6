import { Injectable } from '@nestjs/common';
import { DocumentRegistry, type DocType } from '../../platform/documents/document-registry';
import type { LiveRelease, ReleaseFacts, ReleaseLookup } from '../../platform/documents/release-directory';
import { versionOf } from './release.mapper';
import { ReleasesRepository } from './releases.repository';

/** What the platform's ReleaseDirectory asks (guides and wikis serve the live revision to readers). */
@Injectable()
export class ReleasesLookup implements ReleaseLookup {
  constructor(
    private readonly releases: ReleasesRepository,
    private readonly documents: DocumentRegistry,
  ) {}

  async live(doctype: DocType, docids: number[], langid?: string): Promise<Map<number, LiveRelease>> {
    let langidOf: (docid: number) => string;
    if (langid !== undefined) langidOf = () => langid;
    else {
      const found = await this.documents.of(doctype).find(docids);
      langidOf = (docid) => found.get(docid)?.langid ?? '';
    }
    const live = await this.releases.live(doctype, docids, langidOf);
    return new Map(
      [...live].map(([docid, r]) => [
        docid,
        { releaseid: r.releaseid, revisionid: r.revisionid, version: versionOf(r) },
      ]),
    );
  }

  async find(releaseids: number[]): Promise<Map<number, ReleaseFacts>> {
    const rows = await this.releases.findByIds(releaseids);
    return new Map(
      rows.map((r) => [
        r.releaseid,
        {
          releaseid: r.releaseid,
          revisionid: r.revisionid,
          version: versionOf(r),
          doctype: r.doctype,
          docid: r.docid,
          langid: r.langid,
          status: r.status,
        },
      ]),
    );
  }
}
