import { KeptCopies } from './kept-copies';

describe('KeptCopies', () => {
  it('serves a copy only under the token it was kept under, never under null', () => {
    const copies = new KeptCopies<string>(2);
    copies.keep('a', 't1', 'A1');
    expect(copies.get('a', 't1')).toBe('A1');
    expect(copies.get('a', 't2')).toBeUndefined();
    expect(copies.get('a', null)).toBeUndefined();
    copies.keep('a', 't2', 'A2');
    expect(copies.get('a', 't1')).toBeUndefined();
    expect(copies.get('a', 't2')).toBe('A2');
  });

  it('drops the oldest kept copy past its size; keeping a key again makes it the newest', () => {
    const copies = new KeptCopies<string>(2);
    copies.keep('a', 't', 'A');
    copies.keep('b', 't', 'B');
    copies.keep('a', 't', 'A again');
    copies.keep('c', 't', 'C');
    expect(copies.get('b', 't')).toBeUndefined();
    expect(copies.get('a', 't')).toBe('A again');
    expect(copies.get('c', 't')).toBe('C');
  });

  it('keeps copies within a byte budget: oldest dropped first, one larger than the budget not kept', () => {
    const copies = new KeptCopies<string>(10, { bytes: 10, sizeOf: (value) => value.length });
    copies.keep('a', 't', 'aaaa');
    copies.keep('b', 't', 'bbbb');
    copies.keep('c', 't', 'cccc');
    expect(copies.get('a', 't')).toBeUndefined();
    expect(copies.get('b', 't')).toBe('bbbb');
    expect(copies.get('c', 't')).toBe('cccc');
    copies.keep('b', 't', 'bb');
    copies.keep('d', 't', 'dddd');
    expect([copies.get('b', 't'), copies.get('c', 't'), copies.get('d', 't')]).toEqual(['bb', 'cccc', 'dddd']);
    copies.keep('huge', 't', 'x'.repeat(11));
    expect(copies.get('huge', 't')).toBeUndefined();
    expect(copies.get('d', 't')).toBe('dddd');
    copies.keep('c', 't', 'x'.repeat(11));
    expect(copies.get('c', 't')).toBeUndefined();
  });
});
