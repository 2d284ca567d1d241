import fc from 'fast-check';
import { encodeCursor } from './event-cursor';
import { decodeUserCursor, encodeUserCursor } from './user-cursor';

describe('affected-user cursors', () => {
  it('decode what they encode', () => {
    fc.assert(
      fc.property(fc.string(), (email) => {
        expect(decodeUserCursor(encodeUserCursor(email))).toBe(email);
      }),
    );
  });

  it.each([
    '',
    'not a cursor!',
    encodeCursor([1, 'evt-1']),
    Buffer.from('{"email":1}').toString('base64url'),
    Buffer.from('{"email":"a","x":1}').toString('base64url'),
  ])('refuse %j', (cursor) => {
    expect(decodeUserCursor(cursor)).toBeNull();
  });
});
