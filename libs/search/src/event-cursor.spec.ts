import fc from 'fast-check';
import { decodeCursor, encodeCursor } from './event-cursor';

describe('event cursors', () => {
  it('decode what they encode', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 45 }), fc.string(), (millis, id) => {
        expect(decodeCursor(encodeCursor([millis, id]))).toEqual([millis, id]);
      }),
    );
  });

  it.each(['', 'not a cursor!', Buffer.from('{"a":1}').toString('base64url'), 'AAAA'])(
    'refuse %j',
    (cursor) => {
      expect(decodeCursor(cursor)).toBeNull();
    },
  );
});
