import { grade, isCorrect, scoreOf } from './quiz-grading';
import {
  modelSurveyQuestions,
  plainSurveyQuestions,
  reviseSurvey,
  surveyQuestions,
  validateSurvey,
  withoutCorrectAnswers,
} from './quiz-survey';

describe('quiz grading', () => {
  it('a checkbox answer must equal the correct set, in any order, without extras or repeats', () => {
    expect(isCorrect('checkbox', ['b', 'a'], ['a', 'b'])).toBe(true);
    expect(isCorrect('checkbox', ['a'], ['a', 'b'])).toBe(false);
    expect(isCorrect('checkbox', ['a', 'b', 'c'], ['a', 'b'])).toBe(false);
    expect(isCorrect('checkbox', ['a', 'a'], ['a', 'b'])).toBe(false);
    expect(isCorrect('checkbox', ['a', 'a', 'b'], ['a', 'b'])).toBe(false);
    expect(isCorrect('checkbox', 'a', ['a'])).toBe(false);
    expect(isCorrect('checkbox', [], [])).toBe(true);
  });

  it('other answers must match exactly (type and case included)', () => {
    expect(isCorrect('text', '4', '4')).toBe(true);
    expect(isCorrect('text', 4, '4')).toBe(false);
    expect(isCorrect('text', ' 4', '4')).toBe(false);
    expect(isCorrect('radiogroup', 'Yes', 'yes')).toBe(false);
    expect(isCorrect('boolean', true, true)).toBe(true);
    expect(isCorrect('ranking', ['a', 'b'], ['b', 'a'])).toBe(false);
    expect(isCorrect('multipletext', { b: 2, a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(isCorrect('text', undefined, '4')).toBe(false);
    expect(isCorrect('text', null, null)).toBe(false);
  });

  it('rounds the score to the nearest integer (halves up)', () => {
    expect(scoreOf(2, 3)).toBe(67);
    expect(scoreOf(1, 3)).toBe(33);
    expect(scoreOf(1, 8)).toBe(13);
    expect(scoreOf(0, 0)).toBe(0);
    expect(scoreOf(5, 5)).toBe(100);
  });

  it('passes at exactly the passing score and fails one point below', () => {
    const questions = [1, 2, 3, 4, 5].map((i) => ({ name: `q${i}`, type: 'text', correctAnswer: 'x' }));
    const four = { q1: 'x', q2: 'x', q3: 'x', q4: 'x', q5: 'no' };
    expect(grade(questions, four, 80)).toMatchObject({ score: 80, passed: true });
    expect(grade(questions, four, 81)).toMatchObject({ score: 80, passed: false });
    expect(grade(questions, {}, 0)).toMatchObject({ score: 0, passed: true });
  });

  it('reports each question, unanswered ones as wrong with a null answer', () => {
    const result = grade(
      [
        { name: 'a', type: 'checkbox', correctAnswer: [1, 2] },
        { name: 'b', type: 'text', correctAnswer: 'y' },
      ],
      { a: [2, 1] },
      50,
    );
    expect(result).toEqual({
      score: 50,
      passed: true,
      results: [
        { external_question_uid: 'a', answer: [2, 1], correct: true, points: 1 },
        { external_question_uid: 'b', answer: null, correct: false, points: 0 },
      ],
    });
  });
});

describe('quiz surveys (survey-core model)', () => {
  const survey = {
    title: 'T',
    pages: [
      {
        name: 'p1',
        elements: [
          { type: 'html', name: 'intro', html: '<p>Hi</p>' },
          {
            type: 'panel',
            name: 'panel',
            elements: [{ type: 'checkbox', name: 'tools', title: 'Tools?', choices: ['a', 'b'], correctAnswer: ['a'] }],
          },
          { type: 'expression', name: 'calc', expression: '1+1' },
          { type: 'text', name: 'torque', correctAnswer: '4' },
        ],
      },
    ],
  };

  it('reads questions inside panels and skips html and expression elements', () => {
    expect(surveyQuestions(survey)).toEqual([
      { name: 'tools', title: 'Tools?', type: 'checkbox', correctAnswer: ['a'] },
      { name: 'torque', title: 'torque', type: 'text', correctAnswer: '4' },
    ]);
    expect(validateSurvey(survey, 1)).toEqual([]);
  });

  it('reports each rule violation at survey.<name>', () => {
    expect(validateSurvey({ pages: [] }, 1)).toEqual([
      { message: 'survey.pages must be an array of 1 to 100 pages', field: 'survey.pages' },
    ]);
    expect(validateSurvey({ pages: [] }, 0)).toEqual([]);
    expect(validateSurvey('x', 0)).toEqual([{ message: 'survey must be an object', field: 'survey' }]);
    expect(
      validateSurvey(
        {
          pages: [
            {
              elements: [
                { type: 'text', name: 'a' },
                { type: 'text', name: 'b', correctAnswer: 1 },
                { type: 'text', name: 'b', correctAnswer: 2 },
              ],
            },
          ],
        },
        1,
      ),
    ).toEqual([
      { message: 'Question a needs a correctAnswer', field: 'survey.a' },
      { message: 'Question name b is used twice', field: 'survey.b' },
    ]);
    expect(validateSurvey({ pages: [{ elements: [{ type: 'text', correctAnswer: 1 }] }] }, 1)).toEqual([
      { message: 'A question needs a name of 1 to 100 characters', field: 'survey.pages.0.elements.0' },
    ]);
    expect(validateSurvey({ pages: [{ elements: [{ type: 'nonsense', name: 'x', correctAnswer: 1 }] }] }, 1)).toEqual([
      { message: 'nonsense is not a survey question type', field: 'survey.x' },
    ]);
    expect(
      validateSurvey({ pages: [{ elements: [{ type: 'text', name: '__proto__', correctAnswer: 1 }] }] }, 1),
    ).toEqual([{ message: 'A question needs a name of 1 to 100 characters', field: 'survey.__proto__' }]);
    const long = 'n'.repeat(101);
    expect(
      validateSurvey(
        { pages: [{ elements: [{ type: 'panel', elements: [{ type: 'text', name: long, correctAnswer: 1 }] }] }] },
        1,
      ),
    ).toEqual([{ message: 'A question needs a name of 1 to 100 characters', field: `survey.${long}` }]);
    expect(validateSurvey({ pages: [{ elements: [{ type: 'text', name: ' ', correctAnswer: 1 }] }] }, 1)).toEqual([
      { message: 'A question needs a name of 1 to 100 characters', field: 'survey.pages.0.elements.0' },
    ]);
    const many = {
      pages: [{ elements: Array.from({ length: 501 }, (_, i) => ({ type: 'text', name: `q${i}`, correctAnswer: 1 })) }],
    };
    expect(validateSurvey(many, 1)).toEqual([{ message: 'A survey has at most 500 questions', field: 'survey.pages' }]);
  });

  it('removes every correctAnswer, nested ones too, without touching the original', () => {
    const stripped = withoutCorrectAnswers(survey);
    expect(JSON.stringify(stripped)).not.toContain('correctAnswer');
    expect(JSON.stringify(survey)).toContain('correctAnswer');
  });

  it('revises titles in place and appends new questions to the last page', () => {
    const revised = reviseSurvey(survey, new Map([['torque', 'Torque (Nm)']]), [
      { name: 'new', title: 'New?', type: 'boolean', correctAnswer: true },
    ]);
    expect(surveyQuestions(revised).map((q) => [q.name, q.title])).toEqual([
      ['tools', 'Tools?'],
      ['torque', 'Torque (Nm)'],
      ['new', 'New?'],
    ]);
    expect(surveyQuestions(survey)[1].title).toBe('torque');
    expect(
      reviseSurvey({ pages: [] }, new Map(), [{ name: 'x', title: 'X', type: 'text', correctAnswer: 'x' }]),
    ).toEqual({
      pages: [{ name: 'page1', elements: [{ type: 'text', name: 'x', title: 'X', correctAnswer: 'x' }] }],
    });
  });
});

describe('quiz surveys: the plain reading equals the model', () => {
  const element = (type: string, name: string, extra: Record<string, unknown> = {}) => ({ type, name, ...extra });
  const plain = {
    pages: [
      {
        name: 'p1',
        elements: [
          element('radiogroup', 'r', { title: 'Pick one ', choices: ['a', 'b'], correctAnswer: 'b' }),
          element('checkbox', 'c', { choices: [1, 2, 3], correctAnswer: [3, 1] }),
          element('boolean', 'yes', { title: '', correctAnswer: false }),
          element('text', 'n', { inputType: 'number', correctAnswer: 4 }),
          element('html', 'h', { html: '<b>x</b>' }),
          {
            type: 'panel',
            name: 'pn',
            elements: [
              element('dropdown', 'd', { choices: ['x'], correctAnswer: 'x', visible: false }),
              { type: 'panel', name: 'inner', elements: [element('rating', 'rt', { correctAnswer: 3 })] },
            ],
          },
        ],
      },
      {
        name: 'p2',
        visible: false,
        elements: [
          element('comment', 'cm', { correctAnswer: 'ok' }),
          element('tagbox', 'tb', { choices: ['a'], correctAnswer: ['a'] }),
        ],
      },
      { name: 'p3' },
    ],
  };

  it('reads plain surveys as survey-core does', () => {
    expect(plainSurveyQuestions(plain)).toBeDefined();
    expect(plainSurveyQuestions(plain)).toEqual(modelSurveyQuestions(plain));
    expect(surveyQuestions(plain)).toEqual(modelSurveyQuestions(plain));
  });

  it('leaves anything else to the model', () => {
    const variants: Record<string, unknown>[] = [
      { pages: [{ elements: [element('text', ' padded ', { correctAnswer: 'a' })] }] },
      { pages: [{ elements: [element('text', 'a{b}', { correctAnswer: 'a' })] }] },
      { pages: [{ elements: [element('text', 'a', { title: 'Hi {name}', correctAnswer: 'a' })] }] },
      { pages: [{ elements: [element('text', 'a', { title: { default: 'Hi', de: 'Hallo' }, correctAnswer: 'a' })] }] },
      { pages: [{ elements: [element('matrix', 'm', { columns: ['a'], rows: ['r'], correctAnswer: { r: 'a' } })] }] },
      { pages: [{ elements: [element('unknown-type', 'u', { correctAnswer: 1 })] }] },
      { pages: [{ questions: [element('text', 'a', { correctAnswer: 'a' })] }] },
      { pages: [], questions: [element('text', 'a', { correctAnswer: 'a' })] },
    ];
    for (const survey of variants) {
      expect(plainSurveyQuestions(survey)).toBeUndefined();
      expect(surveyQuestions(survey)).toEqual(modelSurveyQuestions(survey));
    }
  });
});
