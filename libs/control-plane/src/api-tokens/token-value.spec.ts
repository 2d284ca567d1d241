import { randomBytes } from 'node:crypto';
import {
  TOKEN_LENGTH,
  TOKEN_PREFIX,
  base62Encode,
  crc32,
  generateTokenValue,
  hashTokenValue,
  parseTokenValue,
} from './token-value';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('token values', () => {
  it('starts with vgk1- and has a fixed length of 54 characters', () => {
    for (let i = 0; i < 200; i++) {
      const value = generateTokenValue();
      expect(value.startsWith(TOKEN_PREFIX)).toBe(true);
      expect(value).toHaveLength(TOKEN_LENGTH);
      expect(TOKEN_LENGTH).toBe(54);
      expect(value).toMatch(/^vgk1-[0-9A-Za-z]{49}$/);
    }
  });

  it('pads small and keeps the largest 32-byte bodies at 43 base62 characters', () => {
    expect(generateTokenValue(() => Buffer.alloc(32))).toMatch(/^vgk1-0{43}[0-9A-Za-z]{6}$/);
    const largest = generateTokenValue(() => Buffer.alloc(32, 0xff));
    expect(largest).toHaveLength(TOKEN_LENGTH);
    expect(parseTokenValue(largest).ok).toBe(true);
  });

  it('encodes base62 as a big-endian number', () => {
    expect(base62Encode(Buffer.from([0]), 3)).toBe('000');
    expect(base62Encode(Buffer.from([61]), 2)).toBe('0z');
    expect(base62Encode(Buffer.from([62]), 2)).toBe('10');
    expect(base62Encode(Buffer.from([1, 0]), 3)).toBe('048'); // 256 = 4 * 62 + 8
    expect(() => base62Encode(Buffer.from([62]), 1)).toThrow(RangeError);
  });

  it('computes the standard CRC-32', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
  });

  it('round-trips: every generated value parses, with its last four characters', () => {
    for (let i = 0; i < 200; i++) {
      const value = generateTokenValue();
      expect(parseTokenValue(value)).toEqual({ ok: true, value, lastFour: value.slice(-4) });
    }
  });

  it('catches every single-character substitution, in the body and in the checksum', () => {
    let checked = 0;
    for (let sample = 0; sample < 20; sample++) {
      const value = generateTokenValue();
      for (let position = 0; position < value.length; position++) {
        for (const replacement of ALPHABET + '-_') {
          if (replacement === value[position]) continue;
          const typo = value.slice(0, position) + replacement + value.slice(position + 1);
          expect(parseTokenValue(typo).ok).toBe(false);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20 * 49 * 61);
  });

  it('catches adjacent transpositions', () => {
    for (let sample = 0; sample < 20; sample++) {
      const value = generateTokenValue();
      for (let p = TOKEN_PREFIX.length; p < value.length - 1; p++) {
        if (value[p] === value[p + 1]) continue;
        const swapped = value.slice(0, p) + value[p + 1] + value[p] + value.slice(p + 2);
        expect(parseTokenValue(swapped).ok).toBe(false);
      }
    }
  });

  it('rejects random strings of the right shape, other shapes and non-strings', () => {
    for (let i = 0; i < 1000; i++) {
      const random = TOKEN_PREFIX + base62Encode(randomBytes(36), 49);
      expect(parseTokenValue(random)).toEqual({ ok: false, reason: 'bad_checksum' });
    }
    const value = generateTokenValue();
    for (const bad of ['', 'vgk1-', value.slice(0, -1), `${value}x`, ` ${value.slice(1)}`]) {
      expect(parseTokenValue(bad)).toEqual({ ok: false, reason: 'malformed' });
    }
    expect(parseTokenValue(value.replace('vgk1-', 'vgk2-')).ok).toBe(false);
    expect(parseTokenValue(undefined).ok).toBe(false);
    expect(parseTokenValue(42).ok).toBe(false);
  });

  it('hashes with SHA-256 (32 bytes), different values to different hashes', () => {
    const a = generateTokenValue();
    const b = generateTokenValue();
    expect(hashTokenValue(a)).toHaveLength(32);
    expect(hashTokenValue(a).equals(hashTokenValue(a))).toBe(true);
    expect(hashTokenValue(a).equals(hashTokenValue(b))).toBe(false);
  });
});
