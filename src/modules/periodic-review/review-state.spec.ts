import {
  DAY_SECONDS,
  annualDateIn,
  isValidAnnualDate,
  nextAnnualAfter,
  nextDueDate,
  recurrenceProblem,
  reviewState,
  windowOpensDate,
} from './review-state';

const utc = (y: number, m: number, d: number, h = 0, min = 0, s = 0) => Date.UTC(y, m - 1, d, h, min, s) / 1000;

describe('periodic review dates and states (docs/enterprise/periodic-review.md)', () => {
  it('Feb 29 falls on Feb 28 outside leap years, at 00:00 UTC', () => {
    expect(annualDateIn(2028, 2, 29)).toBe(utc(2028, 2, 29));
    expect(annualDateIn(2027, 2, 29)).toBe(utc(2027, 2, 28));
    expect(annualDateIn(2100, 2, 29)).toBe(utc(2100, 2, 28));
    expect(annualDateIn(2000, 2, 29)).toBe(utc(2000, 2, 29));
  });

  it('an annual schedule is due on the first month/day strictly after the base, across a leap year', () => {
    expect(nextAnnualAfter(utc(2027, 3, 1), 2, 29)).toBe(utc(2028, 2, 29));
    expect(nextAnnualAfter(utc(2028, 2, 29), 2, 29)).toBe(utc(2029, 2, 28));
    expect(nextAnnualAfter(utc(2028, 2, 28, 23, 59, 59), 2, 29)).toBe(utc(2028, 2, 29));
    expect(nextAnnualAfter(utc(2027, 2, 28) - 1, 2, 29)).toBe(utc(2027, 2, 28));
    expect(nextAnnualAfter(utc(2026, 12, 31, 12), 1, 1)).toBe(utc(2027, 1, 1));
  });

  it('after a review an annual due date moves past the old due date when that is later', () => {
    const r = { type: 'annual' as const, month: 6, day: 1 };
    // Reviewed early, in the window before the June 1 2027 due date: next due is June 1 2028.
    expect(nextDueDate(r, utc(2027, 5, 20), utc(2027, 6, 1))).toBe(utc(2028, 6, 1));
    // Reviewed late (overdue): the first June 1 after the review.
    expect(nextDueDate(r, utc(2027, 7, 1), utc(2027, 6, 1))).toBe(utc(2028, 6, 1));
    expect(nextDueDate(r, utc(2027, 5, 20))).toBe(utc(2027, 6, 1));
  });

  it('an interval schedule is due days × 86400 after the base (Jan 31 + 30 days)', () => {
    const added = utc(2027, 1, 31, 10, 15, 7);
    expect(nextDueDate({ type: 'interval', days: 30 }, added)).toBe(utc(2027, 3, 2, 10, 15, 7));
    expect(nextDueDate({ type: 'interval', days: 2 }, added)).toBe(added + 2 * DAY_SECONDS);
  });

  it('window boundaries to the second', () => {
    const due = utc(2027, 6, 1);
    const opens = windowOpensDate(due, 30);
    expect(opens).toBe(utc(2027, 5, 2));
    expect(reviewState(opens - 1, due, 30)).toBe('scheduled');
    expect(reviewState(opens, due, 30)).toBe('open');
    expect(reviewState(due - 1, due, 30)).toBe('open');
    expect(reviewState(due, due, 30)).toBe('overdue');
    expect(reviewState(due + 365 * DAY_SECONDS, due, 30)).toBe('overdue');
  });

  it('valid annual dates and recurrence problems', () => {
    expect(isValidAnnualDate(2, 29)).toBe(true);
    expect(isValidAnnualDate(2, 30)).toBe(false);
    expect(isValidAnnualDate(4, 31)).toBe(false);
    expect(isValidAnnualDate(12, 31)).toBe(true);
    expect(isValidAnnualDate(13, 1)).toBe(false);
    expect(isValidAnnualDate(0, 1)).toBe(false);
    expect(recurrenceProblem({ type: 'annual', month: 2, day: 29 }, 30)).toBeNull();
    expect(recurrenceProblem({ type: 'annual', month: 2, day: 30 }, 30)?.[0]).toBe('recurrence.day');
    expect(recurrenceProblem({ type: 'annual', month: 13, day: 1 }, 30)?.[0]).toBe('recurrence.month');
    expect(recurrenceProblem({ type: 'weekly' }, 30)?.[0]).toBe('recurrence.type');
    expect(recurrenceProblem('annual', 30)?.[0]).toBe('recurrence');
    expect(recurrenceProblem({ type: 'interval', days: 2 }, 1)).toBeNull();
    expect(recurrenceProblem({ type: 'interval', days: 1 }, 1)?.[0]).toBe('recurrence.days');
    expect(recurrenceProblem({ type: 'interval', days: 3650 }, 365)).toBeNull();
    expect(recurrenceProblem({ type: 'interval', days: 3651 }, 30)?.[0]).toBe('recurrence.days');
    expect(recurrenceProblem({ type: 'interval', days: 30 }, 30)?.[0]).toBe('completion_window_days');
    expect(recurrenceProblem({ type: 'interval', days: 31 }, 30)).toBeNull();
    expect(recurrenceProblem({ type: 'interval', days: 30, month: 1 }, 5)?.[0]).toBe('recurrence.month');
  });
});
