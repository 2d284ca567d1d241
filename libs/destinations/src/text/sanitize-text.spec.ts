import fc from 'fast-check';
import {
  hasControlCharacters,
  hostileOrHugeText,
  isWellFormed,
} from '../../../../test/support/destination-arbitraries';
import { sanitizeText, toWellFormed } from './sanitize-text';

describe('sanitizeText', () => {
  it('keeps ordinary text, markup and emoji as they are', () => {
    expect(sanitizeText('Ada <b>&</b> *x* 😀 👩‍💻 𝒜')).toBe('Ada <b>&</b> *x* 😀 👩‍💻 𝒜');
  });

  it('turns line breaks and tabs into one space each, \\r\\n included', () => {
    expect(sanitizeText('a\nb\r\nc\rd\te\u2028f\u2029g\u0085h\u000bi\u000cj')).toBe(
      'a b c d e f g h i j',
    );
  });

  it('drops other control characters', () => {
    expect(sanitizeText('a\u0000b\u001b[31mc\u007fd\u009fe')).toBe('ab[31mcde');
  });

  it('drops bidirectional overrides, embeddings and isolates', () => {
    expect(sanitizeText('invoice\u202egpj.exe \u2066x\u2069 \u202ay\u202c')).toBe(
      'invoicegpj.exe x y',
    );
  });

  it('replaces lone surrogates with U+FFFD and keeps pairs', () => {
    expect(sanitizeText('a\ud83db')).toBe('a\ufffdb');
    expect(sanitizeText('a\ude00b')).toBe('a\ufffdb');
    expect(sanitizeText('\ud83d')).toBe('\ufffd');
    expect(sanitizeText('\ud83d\ude00')).toBe('😀');
  });

  it('returns one well-formed line without controls, and is idempotent', () => {
    fc.assert(
      fc.property(hostileOrHugeText(), (text) => {
        const clean = sanitizeText(text);
        expect(isWellFormed(clean)).toBe(true);
        expect(hasControlCharacters(clean)).toBe(false);
        expect(sanitizeText(clean)).toBe(clean);
      }),
    );
  });
});

describe('toWellFormed', () => {
  it('replaces lone surrogates only', () => {
    expect(toWellFormed('a\ud83d\n\ude00<😀>')).toBe('a\ufffd\n\ufffd<😀>');
  });

  it('makes any text encodable in a URL', () => {
    fc.assert(
      fc.property(hostileOrHugeText(), (text) => {
        expect(() => encodeURIComponent(toWellFormed(text))).not.toThrow();
      }),
    );
  });
});
