import { hash } from 'node:crypto';
import type { GuideDocument, GuideSummaryDocument, StepDocument } from './guide-documents.service';

/** One `"key":value` member of a JSON object: its key and its value's JSON text. */
export type JsonMember = [key: string, json: string];

/**
 * A stored source-revision document cut into JSON text once, so that a guide detail is written by joining
 * pieces instead of parsing and serializing the whole document on every read. Revision documents never
 * change once stored (for one set of URL bases), so the pieces are cached by revision.
 */
export interface GuideFragments {
  readonly revisionid: number;
  /** The stored JSON text the pieces were cut from (undefined: built from an object, not cached). */
  readonly text: string | undefined;
  readonly prerequisiteids: number[];
  readonly prerequisiteReleases: GuideDocument['prerequisite_releases'] | undefined;
  readonly stepids: number[];
  readonly summary: GuideSummaryDocument;
  /** The document's members but `prerequisiteids` and `steps`, in its order. */
  readonly fields: JsonMember[];
  /** Each step's JSON without its closing brace: the caller-dependent members are appended to it. */
  readonly openSteps: string[];
  /** False when a step already has a member the detail adds (never written so): such documents take the object path. */
  readonly spliceable: boolean;
  /** Rough memory held, for the cache's budget. */
  readonly bytes: number;
  /** The document as an object (parsed from the text on each call, so no caller shares one). */
  document(): GuideDocument;
  /** SHA-1 of the document's JSON (computed once): stands for the pieces in an answer's entity tag. */
  digest(): string;
}

const ADDED_STEP_MEMBERS = ['comments', 'comment_count'];

/**
 * The members of `object` (those named by `keys`, in that order, when given). Members whose value serializes to
 * nothing (undefined, functions) are left out, as JSON.stringify does.
 */
function membersOf<T extends object>(
  object: T,
  keys: (keyof T & string)[] = Object.keys(object) as (keyof T & string)[],
): JsonMember[] {
  const members: JsonMember[] = [];
  for (const key of keys) {
    const json = JSON.stringify(object[key]) as string | undefined;
    if (json !== undefined) members.push([key, json]);
  }
  return members;
}

/** `"key":value`. */
const memberText = (key: string, json: string): string => `${JSON.stringify(key)}:${json}`;

export function cutDocument(
  revisionid: number,
  document: GuideDocument,
  summary: GuideSummaryDocument,
  text: string | undefined,
): GuideFragments {
  const { prerequisiteids: _ids, steps, ...rest } = document;
  const fields = membersOf(rest);
  const openSteps = steps.map((step) => JSON.stringify(step).slice(0, -1));
  const spliceable = steps.every(
    (step: StepDocument) => Object.keys(step).length > 0 && !ADDED_STEP_MEMBERS.some((k) => Object.hasOwn(step, k)),
  );
  let digest: string | undefined;
  const fieldBytes = fields.reduce((n, [key, json]) => n + key.length + json.length, 0);
  const stepBytes = openSteps.reduce((n, step) => n + step.length, 0);
  return {
    revisionid,
    text,
    prerequisiteids: document.prerequisiteids,
    prerequisiteReleases: document.prerequisite_releases,
    stepids: steps.map((step) => step.stepid),
    summary,
    fields,
    openSteps,
    spliceable,
    // UTF-16 strings: two bytes a character; the text is held for the cache check.
    bytes: 2 * (fieldBytes + stepBytes + (text?.length ?? 0)) + 1024,
    document: () => (text === undefined ? document : (JSON.parse(text) as GuideDocument)),
    digest: () => (digest ??= hash('sha1', text ?? JSON.stringify(document), 'base64url')),
  };
}

/**
 * The JSON text of an object whose members are `members` in order, later members replacing the value of an
 * earlier one with the same key in its place: what JSON.stringify gives for an object literal spreading
 * those members. A member whose JSON is undefined is left out.
 */
export function joinMembers(members: Iterable<[key: string, json: string | undefined]>): string {
  const byKey = new Map<string, string | undefined>();
  for (const [key, json] of members) byKey.set(key, json);
  let out = '';
  for (const [key, json] of byKey) {
    if (json === undefined) continue;
    out += `${out ? ',' : '{'}${memberText(key, json)}`;
  }
  return out ? `${out}}` : '{}';
}

/**
 * A strong entity tag of an answer written from pieces: the digests of the documents cut, then the JSON of
 * every other piece, in order. Same pieces, same bytes; so it changes whenever the answer does, without
 * hashing the whole answer. (JSON text never holds a raw U+0000, so the separator is unambiguous.)
 */
export function piecesTag(digests: string[], pieces: string[]): string {
  return `"${hash('sha1', `${digests.join('\u0000')}\u0000\u0000${pieces.join('\u0000')}`, 'base64url')}"`;
}

/** A step's JSON with `comments` and `comment_count` appended (its pieces from cutDocument). */
export function closeStep(openStep: string, commentsJson: string, commentCount: number): string {
  return `${openStep},"comments":${commentsJson},"comment_count":${commentCount}}`;
}

/** The summary members a list item shows from the stored summary, in the item's order (around userid, username). */
const SUMMARY_HEAD: (keyof GuideSummaryDocument)[] = [
  'url',
  'type',
  'category',
  'subject',
  'title',
  'summary',
  'difficulty',
  'time_required_max',
  'public',
];
const SUMMARY_TAIL: (keyof GuideSummaryDocument)[] = ['flags', 'image'];

/** A stored list summary cut into the JSON of the members a list item shows (guide-reader's toSummary order). */
export interface SummaryPieces {
  readonly revisionid: number;
  readonly text: string | undefined;
  readonly prerequisiteids: number[];
  /** `"url":…,…,"public":…` (members serializing to nothing left out; '' when none). */
  readonly head: string;
  /** `"flags":…,"image":…`. */
  readonly tail: string;
}

const membersJson = (document: GuideSummaryDocument, keys: (keyof GuideSummaryDocument)[]): string =>
  membersOf(document, keys)
    .map(([key, json]) => memberText(key, json))
    .join(',');

export function cutSummary(
  revisionid: number,
  document: GuideSummaryDocument,
  text: string | undefined,
): SummaryPieces {
  return {
    revisionid,
    text,
    prerequisiteids: document.prerequisiteids,
    head: membersJson(document, SUMMARY_HEAD),
    tail: membersJson(document, SUMMARY_TAIL),
  };
}
