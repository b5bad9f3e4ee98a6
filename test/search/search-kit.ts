import type { GuideDetailDto } from '../../src/modules/guides/dto/guide-response.dto';
import type { CreateGuideDto } from '../../src/modules/guides/dto/guide-body.dto';
import type { UserEntity } from '../../src/modules/users/entities/user.entity';
import { addStep, createGuide } from '../factories/guide.factory';
import { settle } from '../utils/events';
import type { TestApp } from '../utils/test-app';

export const API = '/api/2.0';

export interface SearchBody {
  search: string;
  limit: number;
  offset: number;
  totalResults: number;
  moreResults: boolean;
  results: {
    dataType: 'guide' | 'wiki';
    guideid?: number;
    wikiid?: number;
    namespace?: string;
    title: string;
    display_title?: string;
    snippet: string;
  }[];
}

export interface SuggestBody {
  query: string;
  results: { dataType: 'guide' | 'wiki'; guideid?: number; wikiid?: number; namespace?: string; title: string }[];
}

/** A public guide with optional step lines, indexed (events delivered). */
export async function indexedGuide(
  t: TestApp,
  author: UserEntity,
  fields: Partial<CreateGuideDto> & { category: string; title: string },
  stepLines: string[] = [],
): Promise<GuideDetailDto> {
  let guide = await createGuide(t, author, { public: true, ...fields });
  if (stepLines.length) {
    guide = await addStep(t, author, guide.guideid, {
      lines: stepLines.map((text) => ({ text, bullet: 'black', level: 0 })),
    });
  }
  await settle(t);
  return guide;
}

/** Titles of a search answer, in order. */
export const titles = (body: SearchBody | SuggestBody): string[] => body.results.map((r) => r.title);
