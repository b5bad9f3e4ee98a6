import { Model } from 'survey-core';
import type { FieldError } from '../../common/http/api-errors';

/** A graded question of a survey, as the survey-core model reads it. */
export interface SurveyQuestion {
  /** The element name: the question's external_question_uid. */
  name: string;
  title: string;
  type: string;
  correctAnswer: unknown;
}

export type SurveyJson = Record<string, unknown>;

/** Element types that are not questions (docs/enterprise/quizzes.md): shown, never graded. */
const NOT_QUESTIONS = new Set(['html', 'expression', 'image']);
export const MAX_PAGES = 100;
export const MAX_QUESTIONS = 500;
export const MAX_NAME = 100;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The questions of a survey in page order (panels included), as survey-core's model reads them. */
export function surveyQuestions(survey: SurveyJson): SurveyQuestion[] {
  return plainSurveyQuestions(survey) ?? modelSurveyQuestions(survey);
}

/** Question types whose element JSON survey-core reads unchanged (name, title, correctAnswer). */
const PLAIN_TYPES = new Set(['text', 'comment', 'radiogroup', 'checkbox', 'dropdown', 'tagbox', 'boolean', 'rating']);
/** Names survey-core would rewrite (trimmed; `|`, braces and a leading `#` removed). */
const plainName = (name: unknown): name is string =>
  typeof name === 'string' && name !== '' && name === name.trim() && !/[|{}]/.test(name) && !name.startsWith('#');

/**
 * The same list as survey-core's model for surveys of plain pages, panels and the PLAIN_TYPES with plain
 * names and string titles (building the model costs tens of milliseconds for 30 questions, and every
 * save and submit reads its pinned revision); undefined for anything else, which the model then reads.
 */
export function plainSurveyQuestions(survey: SurveyJson): SurveyQuestion[] | undefined {
  if (!Array.isArray(survey.pages) || 'questions' in survey || 'elements' in survey) return undefined;
  const out: SurveyQuestion[] = [];
  const walk = (elements: unknown): boolean => {
    if (elements === undefined) return true;
    if (!Array.isArray(elements)) return false;
    for (const element of elements) {
      if (!isObject(element)) return false;
      if (element.type === 'panel') {
        if ('questions' in element || !walk(element.elements)) return false;
        continue;
      }
      if (typeof element.type === 'string' && NOT_QUESTIONS.has(element.type)) continue;
      const { type, name, title } = element;
      if (typeof type !== 'string' || !PLAIN_TYPES.has(type) || !plainName(name)) return false;
      if (title !== undefined && (typeof title !== 'string' || title.includes('{'))) return false;
      out.push({ name, title: title || name, type, correctAnswer: element.correctAnswer });
    }
    return true;
  };
  for (const page of survey.pages as unknown[]) {
    if (!isObject(page) || 'questions' in page || !walk(page.elements)) return undefined;
  }
  return out;
}

/** The questions as survey-core's model reads them. */
export function modelSurveyQuestions(survey: SurveyJson): SurveyQuestion[] {
  const model = new Model(survey);
  return model
    .getAllQuestions(false, false, true)
    .filter((q) => !NOT_QUESTIONS.has(q.getType()))
    .map((q) => ({
      name: q.name,
      title: q.title || q.name,
      type: q.getType(),
      correctAnswer: q.correctAnswer as unknown,
    }));
}

/** Every question element of the raw JSON (panels walked), with its dotted path, for messages about unnamed ones. */
function rawQuestionElements(survey: SurveyJson): { element: Record<string, unknown>; path: string }[] {
  const found: { element: Record<string, unknown>; path: string }[] = [];
  const walk = (elements: unknown, path: string) => {
    if (!Array.isArray(elements)) return;
    elements.forEach((element, i) => {
      if (!isObject(element)) return;
      const here = `${path}.${i}`;
      if (element.type === 'panel') walk(element.elements, `${here}.elements`);
      else if (!NOT_QUESTIONS.has(String(element.type))) found.push({ element, path: here });
    });
  };
  (survey.pages as unknown[]).forEach((page, p) => {
    if (isObject(page)) walk(page.elements, `survey.pages.${p}.elements`);
  });
  return found;
}

/**
 * The rules of docs/enterprise/quizzes.md (each violation one 422 error at `survey.<name>`): `pages` is an array of
 * `minPages`..100 pages with `elements`; each question has a unique name of 1-100 characters and a
 * correctAnswer; at most 500 questions.
 */
export function validateSurvey(survey: unknown, minPages: number): FieldError[] {
  if (!isObject(survey)) return [{ message: 'survey must be an object', field: 'survey' }];
  const pages = survey.pages;
  if (!Array.isArray(pages) || pages.length < minPages || pages.length > MAX_PAGES) {
    return [{ message: `survey.pages must be an array of ${minPages} to ${MAX_PAGES} pages`, field: 'survey.pages' }];
  }
  const errors: FieldError[] = [];
  pages.forEach((page, p) => {
    if (!isObject(page) || (page.elements !== undefined && !Array.isArray(page.elements))) {
      errors.push({ message: 'A page must be an object with an elements array', field: `survey.pages.${p}` });
    }
  });
  if (errors.length) return errors;
  for (const { element, path } of rawQuestionElements(survey)) {
    const { name } = element;
    const blank = typeof name !== 'string' || name.trim() === '';
    if (blank || name.length > MAX_NAME || name === '__proto__') {
      // At survey.<name> like every other question error; only a question without a name is named by its place.
      const field = blank ? path : `survey.${name}`;
      errors.push({ message: `A question needs a name of 1 to ${MAX_NAME} characters`, field });
    }
  }
  if (errors.length) return errors;
  const questions = surveyQuestions(survey);
  const known = new Set(questions.map((q) => q.name));
  for (const { element } of rawQuestionElements(survey)) {
    if (!known.has(element.name as string)) {
      errors.push({
        message: `${String(element.type)} is not a survey question type`,
        field: `survey.${element.name as string}`,
      });
    }
  }
  if (errors.length) return errors;
  const seen = new Set<string>();
  for (const q of questions) {
    if (seen.has(q.name)) errors.push({ message: `Question name ${q.name} is used twice`, field: `survey.${q.name}` });
    seen.add(q.name);
    if (q.correctAnswer === undefined || q.correctAnswer === null) {
      errors.push({ message: `Question ${q.name} needs a correctAnswer`, field: `survey.${q.name}` });
    }
  }
  if (questions.length > MAX_QUESTIONS) {
    errors.push({ message: `A survey has at most ${MAX_QUESTIONS} questions`, field: 'survey.pages' });
  }
  return errors;
}

/** A deep copy of the survey without any `correctAnswer` (what a quiz taker may see). */
export function withoutCorrectAnswers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCorrectAnswers);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'correctAnswer')
      .map(([key, v]) => [key, withoutCorrectAnswers(v)]),
  );
}

export interface NewQuestion {
  name: string;
  title: string;
  type: string;
  choices?: unknown[];
  correctAnswer: unknown;
}

/** Element types a question upsert may not add: they are not graded questions. */
const NOT_QUESTION_TYPES = new Set(['html', 'expression', 'image', 'panel', 'paneldynamic']);

/** One question of an upsert: its uid, title and, for a new question, its type, choices and answer. */
export interface QuestionInput {
  external_question_uid: string;
  title: string;
  type?: string;
  choices?: unknown[];
  correctAnswer?: unknown;
}

/**
 * What an upsert of `inputs` changes in a survey whose questions are `current`: new titles of existing
 * questions, new questions, and the errors of the inputs (a repeated uid; a new question without a question
 * type or a correctAnswer), each at its index.
 */
export function questionChanges(
  inputs: QuestionInput[],
  current: SurveyQuestion[],
): { titles: Map<string, string>; added: NewQuestion[]; errors: FieldError[] } {
  const byName = new Map(current.map((q) => [q.name, q]));
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const titles = new Map<string, string>();
  const added: NewQuestion[] = [];
  inputs.forEach((input, index) => {
    const uid = input.external_question_uid;
    if (seen.has(uid)) {
      errors.push({ message: `${uid} is repeated`, field: 'questions.external_question_uid', index });
      return;
    }
    seen.add(uid);
    const existing = byName.get(uid);
    if (existing) {
      if (existing.title !== input.title) titles.set(uid, input.title);
      return;
    }
    if (!input.type) errors.push({ message: 'A new question needs a type', field: 'questions.type', index });
    else if (NOT_QUESTION_TYPES.has(input.type)) {
      errors.push({ message: `${input.type} is not a question type`, field: 'questions.type', index });
    }
    if (input.correctAnswer === undefined || input.correctAnswer === null) {
      errors.push({ message: 'A new question needs a correctAnswer', field: 'questions.correctAnswer', index });
    }
    if (
      input.type &&
      !NOT_QUESTION_TYPES.has(input.type) &&
      input.correctAnswer !== undefined &&
      input.correctAnswer !== null
    ) {
      added.push({
        name: uid,
        title: input.title,
        type: input.type,
        choices: input.choices,
        correctAnswer: input.correctAnswer,
      });
    }
  });
  return { titles, added, errors };
}

/**
 * A new survey with the titles changed and the new questions appended to the last page (a first page is
 * made when there is none). The input is not modified.
 */
export function reviseSurvey(survey: SurveyJson, titles: Map<string, string>, added: NewQuestion[]): SurveyJson {
  const copy = JSON.parse(JSON.stringify(survey)) as SurveyJson;
  const pages = (Array.isArray(copy.pages) ? copy.pages : []) as Record<string, unknown>[];
  copy.pages = pages;
  const walk = (elements: unknown) => {
    if (!Array.isArray(elements)) return;
    for (const element of elements as Record<string, unknown>[]) {
      if (!isObject(element)) continue;
      if (element.type === 'panel') walk(element.elements);
      else if (typeof element.name === 'string' && titles.has(element.name)) element.title = titles.get(element.name);
    }
  };
  pages.forEach((page) => walk(page.elements));
  if (added.length) {
    if (!pages.length) pages.push({ name: 'page1', elements: [] });
    const last = pages[pages.length - 1];
    if (!Array.isArray(last.elements)) last.elements = [];
    (last.elements as unknown[]).push(
      ...added.map((q) => ({
        type: q.type,
        name: q.name,
        title: q.title,
        ...(q.choices ? { choices: q.choices } : {}),
        correctAnswer: q.correctAnswer,
      })),
    );
  }
  return copy;
}
