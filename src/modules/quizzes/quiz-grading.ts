/**
 * Grading (docs/enterprise/quizzes.md), pure: a checkbox (or tagbox) answer must equal the correct set; any other
 * answer must match the correct answer exactly (deep equality of the JSON values, types included).
 * score = round(100 × correct / questions); passed means score ≥ the passing score.
 */

export interface GradedQuestion {
  name: string;
  type: string;
  correctAnswer: unknown;
}

export interface QuestionResult {
  external_question_uid: string;
  answer: unknown;
  correct: boolean;
  points: number;
}

export interface Grade {
  score: number;
  passed: boolean;
  results: QuestionResult[];
}

/** Question types whose answer is a set of choices: order does not count. */
const SET_TYPES = new Set(['checkbox', 'tagbox']);

/** Canonical JSON: object keys sorted, so that equal values give equal strings. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export function isCorrect(type: string, answer: unknown, correctAnswer: unknown): boolean {
  if (answer === undefined || answer === null) return false;
  if (SET_TYPES.has(type)) {
    if (!Array.isArray(answer) || !Array.isArray(correctAnswer)) return false;
    const given = new Set(answer.map(canonical));
    const wanted = new Set(correctAnswer.map(canonical));
    return given.size === answer.length && given.size === wanted.size && [...given].every((a) => wanted.has(a));
  }
  return canonical(answer) === canonical(correctAnswer);
}

export function scoreOf(correct: number, questions: number): number {
  return questions === 0 ? 0 : Math.round((100 * correct) / questions);
}

export function grade(
  questions: readonly GradedQuestion[],
  answers: Record<string, unknown>,
  passingScore: number,
): Grade {
  const results = questions.map((q) => {
    const answer = Object.prototype.hasOwnProperty.call(answers, q.name) ? answers[q.name] : null;
    const correct = isCorrect(q.type, answer, q.correctAnswer);
    return { external_question_uid: q.name, answer, correct, points: correct ? 1 : 0 };
  });
  const score = scoreOf(results.filter((r) => r.correct).length, questions.length);
  return { score, passed: score >= passingScore, results };
}
