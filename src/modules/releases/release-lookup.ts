import { Injectable } from '@nestjs/common';
import { KeptCopies } from '../../platform/versions/kept-copies';
import { DocumentRegistry, type DocType } from '../../platform/documents/document-registry';
import type { LiveRelease, ReleaseFacts, ReleaseLookup } from '../../platform/documents/release-directory';
import { versionOf } from './release.mapper';
import { ReleasesRepository, type LiveReleaseRow } from './releases.repository';

/** Documents (per type and language) whose live release, or its absence, an instance keeps. */
const KEPT_DOCUMENTS = 50_000;

const toLive = (r: LiveReleaseRow): LiveRelease =>
  Object.freeze({ releaseid: r.releaseid, revisionid: r.revisionid, version: versionOf(r) });

/** What the platform's ReleaseDirectory asks (guides and wikis serve the live revision to readers). */
@Injectable()
export class ReleasesLookup implements ReleaseLookup {
  /**
   * Per document and language, its live release or null, under the `releases` version token the statement
   * that read it selected: every release write sets a new token in its transaction (ReleasesRepository).
   */
  private readonly kept = new KeptCopies<LiveRelease | null>(KEPT_DOCUMENTS);

  constructor(
    private readonly releases: ReleasesRepository,
    private readonly documents: DocumentRegistry,
  ) {}

  async live(
    doctype: DocType,
    docids: number[],
    langid?: string,
    checked?: string | null,
  ): Promise<Map<number, LiveRelease>> {
    if (langid === undefined) {
      const found = await this.documents.of(doctype).find(docids);
      const live = await this.releases.live(doctype, docids, (docid) => found.get(docid)?.langid ?? '');
      return new Map([...live].map(([docid, r]) => [docid, toLive(r)]));
    }
    const answer = new Map<number, LiveRelease>();
    const missing: number[] = [];
    for (const docid of new Set(docids)) {
      const kept = this.kept.get(`${doctype}:${docid}:${langid}`, checked ?? null);
      if (kept === undefined) missing.push(docid);
      else if (kept) answer.set(docid, kept);
    }
    if (!missing.length) return answer;
    const { live, token } = await this.releases.liveChecked(doctype, missing, () => langid);
    for (const docid of missing) {
      const row = live.get(docid);
      const release = row ? toLive(row) : null;
      if (release) answer.set(docid, release);
      this.kept.keepCommitted(`${doctype}:${docid}:${langid}`, token, release);
    }
    return answer;
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
