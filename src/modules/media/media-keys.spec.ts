import { documentKey, imageKey, newGuid, parseMediaRef } from './media-keys';
import { isValidMediaKey } from './storage/media-storage';

describe('media keys', () => {
  it('makes 16-character guids', () => {
    const guids = new Set(Array.from({ length: 200 }, () => newGuid()));
    expect(guids.size).toBe(200);
    for (const guid of guids) expect(guid).toMatch(/^[A-Za-z0-9]{16}$/);
  });

  it('reads an id or a guid: digits shorter than 16 are an id', () => {
    expect(parseMediaRef('12')).toEqual({ id: 12 });
    expect(parseMediaRef('AbCdEfGhIjKlMnOp')).toEqual({ guid: 'AbCdEfGhIjKlMnOp' });
    expect(parseMediaRef('1234567890123456')).toEqual({ guid: '1234567890123456' });
    for (const bad of ['0', '-1', '99999999999', 'abc', '../x', 'AbCdEfGhIjKlMnOpQ', ''])
      expect(parseMediaRef(bad)).toBeUndefined();
  });

  it('builds keys that the storage accepts, with safe download names', () => {
    expect(imageKey('AbCdEfGhIjKlMnOp', '140x105', 'jpg')).toBe('images/Ab/AbCdEfGhIjKlMnOp.140x105.jpg');
    expect(documentKey('AbCdEfGhIjKlMnOp', '../../Ünïcode manual (v2).PDF', 'pdf')).toBe(
      'documents/Ab/AbCdEfGhIjKlMnOp/Unicode-manual-v2.pdf',
    );
    expect(documentKey('AbCdEfGhIjKlMnOp', '....', 'pdf')).toBe('documents/Ab/AbCdEfGhIjKlMnOp/document.pdf');
    expect(isValidMediaKey(imageKey(newGuid(), 'original', 'png'))).toBe(true);
    for (const bad of [
      'images/../x',
      'images/ab/..',
      'images/ab/.x',
      'other/ab/x',
      'images//x',
      'images/ab',
      '/etc/passwd',
      'images/ab/x\0',
    ]) {
      expect([bad, isValidMediaKey(bad)]).toEqual([bad, false]);
    }
  });
});
