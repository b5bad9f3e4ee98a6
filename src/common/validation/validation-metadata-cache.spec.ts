import { IsInt, IsString, MaxLength, getMetadataStorage, validate } from 'class-validator';
import { memoizeValidationMetadata } from './validation-metadata-cache';

class Base {
  @IsInt()
  id!: number;
}

class Child extends Base {
  @IsString()
  name!: string;
}

const errorsOf = async (value: object) =>
  (await validate(value, { forbidUnknownValues: true })).map(
    (e) => `${e.property}:${Object.keys(e.constraints ?? {}).join(',')}`,
  );

describe('memoizeValidationMetadata', () => {
  beforeAll(() => memoizeValidationMetadata());

  it('answers the same rules as the library, inherited ones included, and the same array when asked again', async () => {
    const bad = Object.assign(new Child(), { id: 'x', name: 3 });
    expect((await errorsOf(bad)).sort()).toEqual(['id:isInt', 'name:isString']);
    expect(await errorsOf(Object.assign(new Child(), { id: 1, name: 'ok' }))).toEqual([]);
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toBe(first);
    expect(first.map((m) => m.propertyName).sort()).toEqual(['id', 'name']);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
  });

  it('keeps options apart: groups give their own answer', () => {
    const storage = getMetadataStorage();
    const plain = storage.getTargetValidationMetadatas(Child, '', false, false);
    const grouped = storage.getTargetValidationMetadatas(Child, '', false, true, ['admin']);
    expect(grouped).not.toBe(plain);
  });

  it('sees a rule added after the first lookup (a class decorated later)', async () => {
    await errorsOf(Object.assign(new Child(), { id: 1, name: 'ok' }));
    // What a decorator does when a module defining rules for Child loads late.
    MaxLength(2)(Child.prototype, 'name');
    expect(await errorsOf(Object.assign(new Child(), { id: 1, name: 'long' }))).toEqual(['name:maxLength']);
  });
});
