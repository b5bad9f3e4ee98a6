import { formShapeProblems, parseValue, type FieldRule } from './step-form-values';

const rule = (fieldType: string, extra: Partial<FieldRule> = {}): FieldRule => ({
  fieldType,
  options: [],
  minValue: null,
  maxValue: null,
  ...extra,
});
const ok = (value: string, mediaid?: number) => ({ ok: true, value, ...(mediaid ? { mediaid } : {}) });
const bad = { ok: false, message: expect.any(String) as string };

describe('step form values (docs/enterprise/work-log.md)', () => {
  it.each([
    ['Text Input', 'abc', ok('abc')],
    ['Text Input', 12, ok('12')],
    ['Text Input', true, bad],
    ['Text Area', 'x'.repeat(65536), bad],
    ['Text Area', '', ok('')],
    ['Numeric Input', '2.50', ok('2.5')],
    ['Numeric Input', -3, ok('-3')],
    ['Numeric Input', '1e3', ok('1000')],
    ['Numeric Input', 'ten', bad],
    ['Numeric Input', '', bad],
    ['Numeric Input', Infinity, bad],
    ['Checkbox', true, ok('1')],
    ['Checkbox', 0, ok('0')],
    ['Checkbox', '1', ok('1')],
    ['Checkbox', 'true', bad],
    ['Date', '2024-02-29', ok('2024-02-29')],
    ['Date', '2023-02-29', bad],
    ['Date', '2024-13-01', bad],
    ['Image', 7, ok('7', 7)],
    ['Document', '7', ok('7', 7)],
    ['Video', 0, bad],
    ['Video', 'x', bad],
  ])('%s accepts or refuses %p', (type, value, expected) => {
    expect(parseValue(rule(type), value)).toEqual(expected);
  });

  it('null is refused for every type', () => {
    for (const type of ['Text Input', 'Numeric Input', 'Checkbox', 'Select', 'Date', 'Image']) {
      expect(parseValue(rule(type, { options: ['a'] }), null)).toEqual(bad);
    }
  });

  it('choices must be one of the options; numbers stay within the limits', () => {
    expect(parseValue(rule('Radios', { options: ['a', 'b'] }), 'b')).toEqual(ok('b'));
    expect(parseValue(rule('Select', { options: ['a', 'b'] }), 'c')).toEqual(bad);
    const limited = rule('Numeric Input', { minValue: 1, maxValue: 2 });
    expect(parseValue(limited, 0.5)).toEqual({ ok: false, message: 'Must be at least 1' });
    expect(parseValue(limited, 2.5)).toEqual({ ok: false, message: 'Must be at most 2' });
    expect(parseValue(limited, 2)).toEqual(ok('2'));
  });

  it('form shape problems: options, limits and repeated guids, with the field index', () => {
    expect(
      formShapeProblems([
        { field_type: 'Radios' },
        { field_type: 'Select', options: ['a', 'a'] },
        { field_type: 'Numeric Input', min: 3, max: 1 },
        { field_type: 'Text Input', field_guid: 'abcdabcdabcdabcd' },
        { field_type: 'Text Input', field_guid: 'abcdabcdabcdabcd', options: [] },
      ]).map((p) => [p.field, p.index]),
    ).toEqual([
      ['form.fields.options', 0],
      ['form.fields.options', 1],
      ['form.fields.min', 2],
      ['form.fields.field_guid', 4],
    ]);
  });
});
