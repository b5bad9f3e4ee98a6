import { Injectable } from '@nestjs/common';
import type { DocType } from './document-registry';

/** A document's release in force: what readers who are not editors see (docs/enterprise/releases.md, Live revision). */
export interface LiveRelease {
  releaseid: number;
  revisionid: number;
  /** `X.Y` */
  version: string;
}

/** A release as other modules see it (e.g. a guide's `prerequisite_releases`). */
export interface ReleaseFacts extends LiveRelease {
  doctype: DocType;
  docid: number;
  langid: string;
  status: 'pending' | 'released' | 'rejected' | 'cancelled' | 'removed';
}

/** Implemented by the releases module. */
export interface ReleaseLookup {
  /**
   * Per document, the newest `released` release of that language (default: its source language; absent when
   * none). `checked`: the `releases` version token the caller read in a statement of its own (a version token
   * column, see ContentVersions); answers kept under it cost no statement.
   */
  live(doctype: DocType, docids: number[], langid?: string, checked?: string | null): Promise<Map<number, LiveRelease>>;
  /** Releases by id (unknown ids are absent). */
  find(releaseids: number[]): Promise<Map<number, ReleaseFacts>>;
}

/**
 * Where content and enterprise modules ask which release of a document is in force, without importing
 * the releases module: guides and wikis serve its revision to readers, the work log and quizzes pin it.
 * Until the releases module registers, no document has a release.
 */
@Injectable()
export class ReleaseDirectory {
  private lookup: ReleaseLookup | undefined;

  provide(lookup: ReleaseLookup): void {
    if (this.lookup) throw new Error('A release lookup is already registered');
    this.lookup = lookup;
  }

  async live(
    doctype: DocType,
    docids: number[],
    langid?: string,
    checked?: string | null,
  ): Promise<Map<number, LiveRelease>> {
    if (!this.lookup || !docids.length) return new Map();
    return this.lookup.live(doctype, docids, langid, checked);
  }

  async find(releaseids: number[]): Promise<Map<number, ReleaseFacts>> {
    if (!this.lookup || !releaseids.length) return new Map();
    return this.lookup.find(releaseids);
  }

  async liveOne(doctype: DocType, docid: number, langid?: string, checked?: string | null): Promise<LiveRelease | null> {
    return (await this.live(doctype, [docid], langid, checked)).get(docid) ?? null;
  }
}
