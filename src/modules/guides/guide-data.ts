/** Pure model of what a guide revision stores, and the rules shared by create and edit. */
import type { StepFormDto } from '../step-forms/dto/step-form.dto';

export const GUIDE_TYPES = [
  'replacement',
  'installation',
  'repair',
  'disassembly',
  'teardown',
  'technique',
  'maintenance',
] as const;
export type GuideType = (typeof GUIDE_TYPES)[number];

export const DIFFICULTIES = ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'] as const;

export const BULLETS = [
  'black',
  'red',
  'orange',
  'yellow',
  'light_blue',
  'blue',
  'green',
  'violet',
  'icon_note',
  'icon_caution',
  'icon_reminder',
] as const;

export const SUMMARY_MAX_LENGTH = 155;
export const INTRODUCTION_MAX_LINES = 49;
export const STEP_LINE_MAX_LENGTH = 350;
export const STEP_MAX_LINES = 8;
export const STEP_MAX_IMAGES = 3;

/** A part or tool as stored: the ITEM page it points to plus the guide-specific fields. */
export interface StoredItem {
  name: string;
  wikiid: number;
  type: string;
  quantity: number;
  notes: string;
  featured: boolean;
}

export interface StepRef {
  stepid: number;
  revisionid: number;
}

/** A source-language guide revision. */
export interface GuideData {
  category: string;
  type: string;
  subject: string;
  title: string;
  summary: string;
  introduction: string;
  conclusion: string;
  difficulty: string | null;
  time_required_min: number;
  time_required_max: number;
  imageid: number | null;
  flags: string[];
  prerequisites: number[];
  /** Prerequisites pinned to a release (absent in revisions saved before releases existed). */
  prerequisite_releases?: { guideid: number; releaseid: number | null }[];
  documents: number[];
  featured_documentid: number | null;
  parts: StoredItem[];
  tools: StoredItem[];
  public: boolean;
  steps: StepRef[];
}

/** The translatable guide-level text (a translation revision stores these plus its step translations). */
export const TRANSLATED_FIELDS = ['title', 'summary', 'introduction', 'conclusion'] as const;
export type TranslationData = Pick<GuideData, (typeof TRANSLATED_FIELDS)[number]> & {
  /** Step id → the step-translation revision (a `guide_step_revisions` row holding StepTranslationData). */
  steps?: Record<string, number>;
};

/** A step's text in one language: title and the text of each source line, by position. */
export interface StepTranslationData {
  langid: string;
  title: string;
  lines: string[];
}

export interface StepLineData {
  text: string;
  bullet: string;
  level: number;
}

export interface StepData {
  title: string;
  lines: StepLineData[];
  imageids: number[];
  /** The step's form revision (docs/enterprise/work-log.md); absent or null for none. */
  form?: StepFormDto | null;
}

/** Stable JSON (keys sorted) for "did anything change" comparisons. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** Whether `a` and `b` have the same canonical JSON (key order aside). */
export const sameData = (a: unknown, b: unknown): boolean => sameJson(a, b) ?? canonical(a) === canonical(b);

/** What JSON writes for a value inside an array (undefined, functions and symbols become null). */
const inArray = (value: unknown): unknown =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol' ? null : value;
/** Whether JSON writes a property with this value. */
const written = (value: unknown): boolean =>
  value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';

/**
 * canonical(a) === canonical(b) without building either string (an edit compares whole guides): walks both values;
 * undefined when a value has a toJSON or an object meets a primitive (then the strings decide).
 */
function sameJson(a: unknown, b: unknown): boolean | undefined {
  if (a === b) return true;
  const objectA = typeof a === 'object' && a !== null;
  const objectB = typeof b === 'object' && b !== null;
  if (!objectA || !objectB) return objectA || objectB ? undefined : JSON.stringify(a) === JSON.stringify(b);
  if (
    typeof (a as { toJSON?: unknown }).toJSON === 'function' ||
    typeof (b as { toJSON?: unknown }).toJSON === 'function'
  )
    return undefined;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const same = sameJson(inArray(a[i]), inArray(b[i]));
      if (same !== true) return same;
    }
    return true;
  }
  const recordA = a as Record<string, unknown>;
  const recordB = b as Record<string, unknown>;
  let keys = 0;
  for (const key of Object.keys(recordA)) {
    if (!written(recordA[key])) continue;
    keys++;
    if (!Object.prototype.propertyIsEnumerable.call(recordB, key) || !written(recordB[key])) return false;
    const same = sameJson(recordA[key], recordB[key]);
    if (same !== true) return same;
  }
  for (const key of Object.keys(recordB)) if (written(recordB[key])) keys--;
  return keys === 0;
}

/** "<Category> <Subject> Replacement", or without a subject "<Category> Replacement"; teardowns read "<Category> Teardown". */
export function generatedTitle(type: string, category: string, subject: string): string {
  const label = type.charAt(0).toUpperCase() + type.slice(1);
  return [category, subject.trim(), label].filter((part) => part !== '').join(' ');
}

/** "30 minutes - 1 hour" style text from seconds; "No estimate" when both are 0. */
export function timeRequiredText(min: number, max: number): string {
  const format = (seconds: number): string => {
    if (seconds < 60) return `${seconds} seconds`;
    const minutes = Math.round(seconds / 60);
    if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
    const hours = Math.round((minutes / 60) * 10) / 10;
    return hours === 1 ? '1 hour' : `${hours} hours`;
  };
  if (!min && !max) return 'No estimate';
  if (!min || min === max) return format(max || min);
  return `${format(min)} - ${format(max)}`;
}

/** Which step ids a step order must be a permutation of; undefined when `order` is one. */
export function isPermutation(order: number[], of: number[]): boolean {
  if (order.length !== of.length) return false;
  const wanted = new Set(of);
  const seen = new Set<number>();
  for (const id of order) {
    if (!wanted.has(id) || seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}

/** The first line of a step is level 0 and each line goes at most one level deeper than the one before. */
export function lineLevelProblem(lines: { level: number }[]): number | undefined {
  for (let i = 0; i < lines.length; i += 1) {
    const previous = i === 0 ? -1 : lines[i - 1].level;
    if (lines[i].level > previous + 1) return i;
  }
  return undefined;
}

export function parseStored<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
