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
});
