import { hash } from 'node:crypto';
import { summaryDocument, type GuideDocument, type GuideSummaryDocument, type StepDocument } from './guide-document';

/** One `"key":value` member of a JSON object: its key and its value's JSON text. */
export type JsonMember = [key: string, json: string];

/**
 * A source-revision document as the JSON pieces a guide detail is written from, so that the detail joins pieces
 * instead of parsing and serializing the document: sliced from the stored text by its layout (no parse), or cut
 * from the document object when the stored text has none.
 */
export interface GuideFragments {
  readonly revisionid: number;
  readonly prerequisiteids: number[];
  readonly prerequisiteReleases: GuideDocument['prerequisite_releases'] | undefined;
  readonly stepids: number[];
  /** The document's members but `prerequisiteids` and `steps`, in its order, as `"key":value,…` ('' for none). */
  readonly fieldsJson: string;
  /** Each step's JSON without its closing brace: the caller-dependent members are appended to it. */
  readonly openSteps: string[];
  /** False when a step already has a member the detail adds (never written so): such documents take the object path. */
  readonly spliceable: boolean;
  /** What a list item shows of the document (parsed from the text on first call when sliced). */
  summary(): GuideSummaryDocument;
  /** The document as an object (parsed from the text on each call, so no caller shares one). */
  document(): GuideDocument;
  /** SHA-1 of the document's JSON: stands for the pieces in an answer's entity tag. */
  digest(): string;
}

/**
 * Where the pieces of a stored document lie in its text (`guide_revisions.layout`), with the few values a detail
 * needs besides the text; written with the document. Steps are `[stepid, start, end]`: the step's JSON is
 * `text.slice(start, end)`.
 */
export interface DocumentLayout {
  /** The text's length: a layout for another text (a database that rewrites JSON) is not used. */
  length: number;
  /** The members but `prerequisiteids` and `steps` are `text.slice(1, fields)`. */
  fields: number;
  steps: [stepid: number, start: number, end: number][];
  prerequisiteids: number[];
  prerequisite_releases: GuideDocument['prerequisite_releases'];
  digest: string;
}

const ADDED_STEP_MEMBERS = ['comments', 'comment_count'];
const PREREQUISITES_MEMBER = ',"prerequisiteids":';

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

const spliceableSteps = (steps: StepDocument[]): boolean =>
  steps.every(
    (step: StepDocument) => Object.keys(step).length > 0 && !ADDED_STEP_MEMBERS.some((k) => Object.hasOwn(step, k)),
  );

export function cutDocument(revisionid: number, document: GuideDocument, text: string | undefined): GuideFragments {
  const { prerequisiteids: _ids, steps, ...rest } = document;
  let digest: string | undefined;
  return {
    revisionid,
    prerequisiteids: document.prerequisiteids,
    prerequisiteReleases: document.prerequisite_releases,
    stepids: steps.map((step) => step.stepid),
    fieldsJson: membersOf(rest)
      .map(([key, json]) => memberText(key, json))
      .join(','),
    openSteps: steps.map((step) => JSON.stringify(step).slice(0, -1)),
    spliceable: spliceableSteps(steps),
    summary: () => summaryDocument(document),
    document: () => (text === undefined ? document : (JSON.parse(text) as GuideDocument)),
    digest: () => (digest ??= hash('sha1', text ?? JSON.stringify(document), 'base64url')),
  };
}

/**
 * The layout of the JSON text of `document` (as JSON.stringify writes it, built here from the pieces, so that a
 * write serializes them once), or null when the document is not laid out as this service writes it (members ending
 * with `prerequisite_releases`, `prerequisiteids`, `steps`; steps without the members a detail adds). With
 * `stored`, null too unless `stored` is that text: a database that rewrote the JSON (as MySQL's JSON type does).
 */
export function layoutOf(document: GuideDocument, stored?: string): DocumentLayout | null {
  const { prerequisiteids, steps, ...rest } = document;
  const fieldsObject = JSON.stringify(rest);
  if (
    Object.keys(document).slice(-3).join() !== 'prerequisite_releases,prerequisiteids,steps' ||
    fieldsObject === '{}' ||
    !Array.isArray(prerequisiteids) ||
    !Array.isArray(steps) ||
    !spliceableSteps(steps)
  )
    return null;
  const fields = fieldsObject.length - 1;
  let text = `${fieldsObject.slice(0, -1)}${PREREQUISITES_MEMBER}${JSON.stringify(prerequisiteids)},"steps":[`;
  const ranges = steps.map((step, i): [number, number, number] => {
    if (i) text += ',';
    const start = text.length;
    text += JSON.stringify(step);
    return [step.stepid, start, text.length];
  });
  text += ']}';
  if (stored !== undefined && stored !== text) return null;
  return {
    length: text.length,
    fields,
    steps: ranges,
    prerequisiteids,
    prerequisite_releases: document.prerequisite_releases,
    digest: hash('sha1', text, 'base64url'),
  };
}

/** Whether `layout` was computed for `text` (cheap checks at the pieces' edges). */
function fitsText(layout: DocumentLayout, text: string): boolean {
  return (
    layout.length === text.length &&
    text.startsWith(PREREQUISITES_MEMBER, layout.fields) &&
    layout.steps.every(([, start, end]) => text.charCodeAt(start) === 0x7b && text.charCodeAt(end - 1) === 0x7d)
  );
}

/** The stored layout of `text`, if it has one that fits it. */
export function storedLayout(text: string, layout: unknown): DocumentLayout | null {
  if (typeof layout !== 'string' || !layout) return null;
  const parsed = JSON.parse(layout) as DocumentLayout;
  return fitsText(parsed, text) ? parsed : null;
}

/** A stored document's pieces sliced by its layout: no parse of the text. */
export function sliceDocument(revisionid: number, text: string, layout: DocumentLayout): GuideFragments {
  let summary: GuideSummaryDocument | undefined;
  const document = () => JSON.parse(text) as GuideDocument;
  return {
    revisionid,
    prerequisiteids: layout.prerequisiteids,
    prerequisiteReleases: layout.prerequisite_releases,
    stepids: layout.steps.map(([stepid]) => stepid),
    fieldsJson: text.slice(1, layout.fields),
    openSteps: layout.steps.map(([, start, end]) => text.slice(start, end - 1)),
    spliceable: true,
    summary: () => (summary ??= summaryDocument(document())),
    document,
    digest: () => layout.digest,
  };
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
