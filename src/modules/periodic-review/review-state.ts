import type { ReviewState } from '../../platform/documents/review-directory';

/** How a schedule recurs (docs/enterprise/periodic-review.md). */
export type Recurrence = { type: 'annual'; month: number; day: number } | { type: 'interval'; days: number };

export const DAY_SECONDS = 86_400;
export const DEFAULT_WINDOW_DAYS = 30;

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Whether month/day names a date in some year (Feb 29 counts: it falls on Feb 28 in other years). */
export function isValidAnnualDate(month: number, day: number): boolean {
  if (!Number.isInteger(month) || !Number.isInteger(day) || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 ? 29 : daysInMonth(2001, month));
}

/** 00:00 UTC of month/day in `year`, in seconds; Feb 29 is Feb 28 outside leap years. */
export function annualDateIn(year: number, month: number, day: number): number {
  const d = month === 2 && day === 29 && !isLeap(year) ? 28 : day;
  return Date.UTC(year, month - 1, d) / 1000;
}

/** The first month/day at 00:00 UTC strictly after `after` (seconds). */
export function nextAnnualAfter(after: number, month: number, day: number): number {
  const year = new Date(after * 1000).getUTCFullYear();
  for (let y = year; ; y += 1) {
    const due = annualDateIn(y, month, day);
    if (due > after) return due;
  }
}

/**
 * The next due date. `base` is when the document was added or last reviewed; `previousDue` (after a
 * review) keeps an annual schedule from landing on the date just reviewed for.
 */
export function nextDueDate(recurrence: Recurrence, base: number, previousDue: number | null = null): number {
  if (recurrence.type === 'interval') return base + recurrence.days * DAY_SECONDS;
  const after = previousDue !== null && previousDue > base ? previousDue : base;
  return nextAnnualAfter(after, recurrence.month, recurrence.day);
}

export const windowOpensDate = (nextDue: number, windowDays: number): number => nextDue - windowDays * DAY_SECONDS;

/** `scheduled` before the window opens, `open` from its first second until the due date, `overdue` from then on. */
export function reviewState(now: number, nextDue: number, windowDays: number): ReviewState {
  if (now < windowOpensDate(nextDue, windowDays)) return 'scheduled';
  return now < nextDue ? 'open' : 'overdue';
}

/** Why a recurrence and window are refused (422), as [field, message]; null when they are valid. */
export function recurrenceProblem(recurrence: unknown, windowDays: number): [string, string] | null {
  if (typeof recurrence !== 'object' || recurrence === null || Array.isArray(recurrence)) {
    return ['recurrence', 'recurrence must be {type:"annual", month, day} or {type:"interval", days}'];
  }
  const r = recurrence as Record<string, unknown>;
  if (r.type === 'annual') {
    const keys = Object.keys(r).filter((k) => !['type', 'month', 'day'].includes(k));
    if (keys.length) return [`recurrence.${keys[0]}`, `recurrence.${keys[0]} is not allowed for an annual schedule`];
    if (!Number.isInteger(r.month) || (r.month as number) < 1 || (r.month as number) > 12) {
      return ['recurrence.month', 'recurrence.month must be an integer from 1 to 12'];
    }
    if (!Number.isInteger(r.day) || !isValidAnnualDate(r.month as number, r.day as number)) {
      return ['recurrence.day', 'recurrence.day must make a valid date with recurrence.month'];
    }
    return null;
  }
  if (r.type === 'interval') {
    const keys = Object.keys(r).filter((k) => !['type', 'days'].includes(k));
    if (keys.length) return [`recurrence.${keys[0]}`, `recurrence.${keys[0]} is not allowed for an interval schedule`];
    if (!Number.isInteger(r.days) || (r.days as number) < 2 || (r.days as number) > 3650) {
      return ['recurrence.days', 'recurrence.days must be an integer from 2 to 3650'];
    }
    if (windowDays >= (r.days as number)) {
      return ['completion_window_days', 'completion_window_days must be less than the interval'];
    }
    return null;
  }
  return ['recurrence.type', 'recurrence.type must be annual or interval'];
}
