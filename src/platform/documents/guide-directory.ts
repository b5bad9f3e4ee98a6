import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';

/** A guide summary exactly as `GET /guides` lists it (the guides module's GuideSummaryDto). */
export interface GuideSummaryView {
  dataType: 'guide';
  guideid: number;
  locale: string;
  revisionid: number;
  title: string;
  flags: string[];
}

/** An ITEM page a guide revision uses as a part or a tool. */
export interface GuideItemUse {
  wikiid: number;
  name: string;
}

/** Implemented by the guides module. */
export interface GuideLookup {
  /**
   * Summaries of the public, non-deleted guides among `guideids`, in that order, for `caller`: the items
   * `GET /guides?guideids=…` answers, built by the same code.
   */
  summaries(guideids: number[], caller: AuthenticatedUser | undefined): Promise<GuideSummaryView[]>;
  /** Parts and tools of guide revisions, by revisionid (unknown ids are absent). One statement. */
  items(revisionids: number[]): Promise<Map<number, { parts: GuideItemUse[]; tools: GuideItemUse[] }>>;
}

/**
 * Where modules below the guides module (wikis: a category's guides, parts and tools) read guides without
 * importing it. Until the guides module registers, there are no guides.
 */
@Injectable()
export class GuideDirectory {
  private lookup: GuideLookup | undefined;

  provide(lookup: GuideLookup): void {
    if (this.lookup) throw new Error('A guide lookup is already registered');
    this.lookup = lookup;
  }

  async summaries(guideids: number[], caller: AuthenticatedUser | undefined): Promise<GuideSummaryView[]> {
    if (!this.lookup || !guideids.length) return [];
    return this.lookup.summaries(guideids, caller);
  }

  async items(revisionids: number[]): Promise<Map<number, { parts: GuideItemUse[]; tools: GuideItemUse[] }>> {
    if (!this.lookup || !revisionids.length) return new Map();
    return this.lookup.items(revisionids);
  }
}
