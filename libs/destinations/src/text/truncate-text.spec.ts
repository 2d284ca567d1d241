import fc from 'fast-check';
import { hostileOrHugeText, isWellFormed } from '../../../../test/support/destination-arbitraries';
import { ELLIPSIS, escapeAndTruncate, truncateText } from './truncate-text';

/** Entities for &, < and >, as chat targets escape them. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const escapeEntity = (codePoint: string) => ENTITIES[codePoint] ?? codePoint;

describe('truncateText', () => {
  it('leaves text that fits alone', () => {
    expect(truncateText('abc', 3)).toBe('abc');
    expect(truncateText('', 0)).toBe('');
  });

  it('cuts text that does not fit to exactly the limit, ending with an ellipsis', () => {
    expect(truncateText('abcdef', 4)).toBe(`abc${ELLIPSIS}`);
    expect(truncateText('abcdef', 1)).toBe(ELLIPSIS);
    expect(truncateText('abcdef', 0)).toBe('');
  });

  it('never splits a surrogate pair', () => {
    // 'a😀' is 3 code units: a cut at 2 would leave half the emoji.
    expect(truncateText('a😀b', 3)).toBe(`a${ELLIPSIS}`);
    expect(truncateText('😀😀😀', 4)).toBe(`😀${ELLIPSIS}`);
  });

  it('stays within the limit, well-formed, as a prefix of the text', () => {
    fc.assert(
      fc.property(hostileOrHugeText(), fc.nat(300), (text, max) => {
        const cut = truncateText(text, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        if (isWellFormed(text)) expect(isWellFormed(cut)).toBe(true);
        const kept = cut.endsWith(ELLIPSIS) && cut !== text ? cut.slice(0, -1) : cut;
        expect(text.startsWith(kept)).toBe(true);
      }),
    );
  });
});

describe('escapeAndTruncate', () => {
  it('counts the limit on the escaped text', () => {
    expect(escapeAndTruncate('a&b', 7, escapeEntity)).toBe('a&amp;b');
    expect(escapeAndTruncate('a&b', 6, escapeEntity)).toBe(`a${ELLIPSIS}`);
  });

  it('never cuts an escape in half', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a&<>]{0,40}$/), fc.nat(60), (text, max) => {
        const cut = escapeAndTruncate(text, max, escapeEntity);
        expect(cut.length).toBeLessThanOrEqual(max);
        const body = cut.endsWith(ELLIPSIS) ? cut.slice(0, -1) : cut;
        expect(body).toMatch(/^(a|&amp;|&lt;|&gt;)*$/);
      }),
    );
  });
});
