/** Pure rules of step forms (docs/enterprise/work-log.md): field types and how a recorded value is checked. */

export const FIELD_TYPES = [
  'Text Input',
  'Text Area',
  'Numeric Input',
  'Checkbox',
  'Radios',
  'Select',
  'Date',
  'Image',
  'Video',
  'Document',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const MAX_FIELDS = 50;
export const MAX_OPTIONS = 100;
export const MAX_TEXT_VALUE = 65535;
export const MEDIA_TYPES: readonly string[] = ['Image', 'Video', 'Document'];
export const CHOICE_TYPES: readonly string[] = ['Radios', 'Select'];

/** What a value is checked against. */
export interface FieldRule {
  fieldType: string;
  options: string[];
  minValue: number | null;
  maxValue: number | null;
}

export type ParsedValue = { ok: true; value: string; mediaid?: number } | { ok: false; message: string };

const NUMERIC = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function validDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [
    31,
    year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return day <= days[month - 1];
}

/** Turns a sent value into the string that is stored, or says why it is refused. */
export function parseValue(rule: FieldRule, value: unknown): ParsedValue {
  if (value === null || value === undefined) return { ok: false, message: 'A value is required' };
  switch (rule.fieldType) {
    case 'Text Input':
    case 'Text Area': {
      if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value: String(value) };
      if (typeof value !== 'string') return { ok: false, message: 'Expected a string' };
      if (value.length > MAX_TEXT_VALUE) return { ok: false, message: `At most ${MAX_TEXT_VALUE} characters` };
      return { ok: true, value };
    }
    case 'Numeric Input': {
      const n =
        typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : NaN;
      if (!Number.isFinite(n)) return { ok: false, message: 'Expected a number' };
      if (rule.minValue !== null && n < rule.minValue)
        return { ok: false, message: `Must be at least ${rule.minValue}` };
      if (rule.maxValue !== null && n > rule.maxValue)
        return { ok: false, message: `Must be at most ${rule.maxValue}` };
      return { ok: true, value: String(n) };
    }
    case 'Checkbox': {
      if (value === true || value === 1 || value === '1') return { ok: true, value: '1' };
      if (value === false || value === 0 || value === '0') return { ok: true, value: '0' };
      return { ok: false, message: 'Expected true, false, 1 or 0' };
    }
    case 'Radios':
    case 'Select': {
      if (typeof value !== 'string' || !rule.options.includes(value)) {
        return { ok: false, message: `Expected one of: ${rule.options.join(', ')}` };
      }
      return { ok: true, value };
    }
    case 'Date': {
      if (typeof value !== 'string' || !validDate(value)) return { ok: false, message: 'Expected a date YYYY-MM-DD' };
      return { ok: true, value };
    }
    default: {
      const id =
        typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(id) || id < 1 || id > 2147483647) return { ok: false, message: 'Expected a media id' };
      return { ok: true, value: String(id), mediaid: id };
    }
  }
}

/** Problems of a form's options, limits and guids that class-validator cannot see (field path, message). */
export function formShapeProblems(
  fields: { field_guid?: string; field_type: string; options?: string[]; min?: number; max?: number }[],
): { field: string; message: string; index?: number }[] {
  const problems: { field: string; message: string; index?: number }[] = [];
  const guids = new Set<string>();
  fields.forEach((f, i) => {
    if (CHOICE_TYPES.includes(f.field_type)) {
      const options = f.options ?? [];
      if (options.length < 1 || options.length > MAX_OPTIONS) {
        problems.push({
          field: 'form.fields.options',
          index: i,
          message: `${f.field_type} needs 1 to ${MAX_OPTIONS} options`,
        });
      } else if (new Set(options).size !== options.length) {
        problems.push({ field: 'form.fields.options', index: i, message: 'Options must be distinct' });
      } else if (options.some((o) => o.length < 1 || o.length > 255)) {
        problems.push({ field: 'form.fields.options', index: i, message: 'Each option is 1 to 255 characters' });
      }
    }
    if (f.field_type === 'Numeric Input' && f.min !== undefined && f.max !== undefined && f.min > f.max) {
      problems.push({ field: 'form.fields.min', index: i, message: 'min must not be greater than max' });
    }
    if (f.field_guid !== undefined) {
      if (guids.has(f.field_guid))
        problems.push({ field: 'form.fields.field_guid', index: i, message: 'Repeated field_guid' });
      guids.add(f.field_guid);
    }
  });
  return problems;
}
