import { JsonText } from './json-text';

describe('JsonText', () => {
  it('gives the value of a text and the text of a value, each made once', () => {
    const fromText = JsonText.ofText<{ a: number[] }>('{"a":[1,2]}', '"tag"');
    expect(fromText.value()).toEqual({ a: [1, 2] });
    expect(fromText.value()).toBe(fromText.value());
    expect(fromText.etag).toBe('"tag"');
    const fromValue = JsonText.of({ b: 'x' });
    expect(fromValue.text).toBe('{"b":"x"}');
    expect(fromValue.etag).toBeUndefined();
  });

  it('serializes as its value wherever it is embedded (error bodies, events)', () => {
    const detail = JsonText.ofText<{ title: string }>('{"title":"Lid"}');
    expect(JSON.stringify({ error: true, current: detail })).toBe('{"error":true,"current":{"title":"Lid"}}');
  });
});
