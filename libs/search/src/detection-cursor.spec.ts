import {
  MAX_DETECTION_LIST_OFFSET,
  decodeDetectionCursor,
  encodeDetectionCursor,
} from './detection-cursor';

describe('detection list cursors', () => {
  it('round-trips a position', () => {
    expect(decodeDetectionCursor(encodeDetectionCursor(25))).toBe(25);
  });

  it('refuses what the list never hands out', () => {
    const encode = (value: unknown) =>
      Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
    for (const cursor of [
      '',
      'not base64!',
      encode({ offset: 0 }),
      encode({ offset: -5 }),
      encode({ offset: 1.5 }),
      encode({ offset: MAX_DETECTION_LIST_OFFSET + 1 }),
      encode({ offset: 5, extra: 1 }),
      encode({ email: 'a@example.com' }),
      encode([5, 'x']),
    ]) {
      expect(decodeDetectionCursor(cursor)).toBeNull();
    }
  });
});
