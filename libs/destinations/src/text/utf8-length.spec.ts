import fc from 'fast-check';
import { hostileOrHugeText } from '../../../../test/support/destination-arbitraries';
import { utf8Length } from './utf8-length';

describe('utf8Length', () => {
  it('counts 1 to 4 bytes per character', () => {
    expect(utf8Length('a')).toBe(1);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('€')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
  });

  it('agrees with the UTF-8 encoder, lone surrogates included', () => {
    fc.assert(
      fc.property(hostileOrHugeText(), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });
});
