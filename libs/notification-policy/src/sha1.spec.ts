import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { idFromParts, nameBasedUuid } from './name-based-uuid';
import { sha1Hex } from './sha1';
import { utf8Bytes } from './utf8-bytes';

describe('sha1Hex', () => {
  it.each([
    ['', 'da39a3ee5e6b4b0d3255bfef95601890afd80709'],
    ['abc', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '84983e441c3bd26ebaae4aa1f95129e5e54670f1',
    ],
  ])('matches the FIPS 180 test vector for %j', (input, expected) => {
    expect(sha1Hex(input)).toBe(expected);
  });

  it('agrees with node:crypto on texts of every padding length and on non-ASCII text', () => {
    const texts = Array.from({ length: 130 }, (_, n) => 'x'.repeat(n));
    texts.push('Zoë – 東京 🚨', 'a'.repeat(1000));
    for (const text of texts) {
      expect(sha1Hex(text)).toBe(createHash('sha1').update(text, 'utf8').digest('hex'));
    }
  });
});

describe('utf8Bytes', () => {
  it('encodes like Buffer, lone surrogates included', () => {
    for (const text of ['plain', 'é', '€', '🚨', 'a\ud800b', '\udc00']) {
      expect(utf8Bytes(text)).toEqual([...Buffer.from(text, 'utf8')]);
    }
  });

  it('appends to the bytes it is given', () => {
    const prefix = [1, 2, 3];
    expect(utf8Bytes('é🚨', prefix)).toBe(prefix);
    expect(prefix).toEqual([1, 2, 3, ...Buffer.from('é🚨', 'utf8')]);
  });
});

describe('nameBasedUuid', () => {
  it('computes RFC 9562 version-5 UUIDs', () => {
    const dns = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
    expect(nameBasedUuid('www.example.com', dns)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => nameBasedUuid('x', 'not-a-uuid')).toThrow(RangeError);
  });

  it('gives the same id for the same parts and different ids when parts are split differently', () => {
    expect(idFromParts('a', 1)).toBe(idFromParts('a', 1));
    expect(idFromParts('a:b', 'c')).not.toBe(idFromParts('a', 'b:c'));
    expect(idFromParts('a', 1)).not.toBe(idFromParts('a', '1'));
  });
});

describe('canonicalJson', () => {
  it('does not depend on key order, at any depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { y: 2, z: 1 }] }, b: 1 }),
    );
  });

  it('drops undefined members like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
  });
});
