import { utf8Bytes } from './utf8-bytes';

/**
 * SHA-1 (FIPS 180-4) in plain JavaScript. Used only to derive deterministic, name-based ids and
 * content fingerprints (not for security), so the engine needs no crypto module.
 */
export function sha1Bytes(message: ArrayLike<number>): number[] {
  // Ids are derived for every notification: the message is padded into one reused typed buffer
  // and the schedule reuses one word array, rather than growing plain arrays. (A new typed array
  // over 64 bytes, the size of most ids' messages, gets a buffer outside the heap: that
  // allocation took longer than the hash.)
  const length = message.length;
  const blocks = Math.floor((length + 8) / 64) + 1;
  const end = blocks * 64;
  if (padding.length < end) padding = new Uint8Array(end);
  const padded = padding;
  for (let i = 0; i < length; i++) padded[i] = message[i];
  padded.fill(0, length, end);
  padded[length] = 0x80;
  // 64-bit big-endian bit length; messages here are far below 2^32 bits, the high word is computed anyway.
  const bitLength = length * 8;
  const high = Math.floor(bitLength / 0x100000000);
  const low = bitLength >>> 0;
  padded[end - 8] = (high >>> 24) & 0xff;
  padded[end - 7] = (high >>> 16) & 0xff;
  padded[end - 6] = (high >>> 8) & 0xff;
  padded[end - 5] = high & 0xff;
  padded[end - 4] = (low >>> 24) & 0xff;
  padded[end - 3] = (low >>> 16) & 0xff;
  padded[end - 2] = (low >>> 8) & 0xff;
  padded[end - 1] = low & 0xff;

  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  const w = schedule;

  for (let block = 0; block < end; block += 64) {
    for (let t = 0; t < 16; t++) {
      const i = block + t * 4;
      w[t] = (padded[i] << 24) | (padded[i + 1] << 16) | (padded[i + 2] << 8) | padded[i + 3];
    }
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16];
      w[t] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    // Four loops of twenty rounds, one per round function: no branch inside a round.
    for (let t = 0; t < 20; t++) {
      const temp = (rotl5(a) + ((b & c) | (~b & d)) + e + 0x5a827999 + w[t]) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    for (let t = 20; t < 40; t++) {
      const temp = (rotl5(a) + (b ^ c ^ d) + e + 0x6ed9eba1 + w[t]) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    for (let t = 40; t < 60; t++) {
      const temp = (rotl5(a) + ((b & c) | (b & d) | (c & d)) + e + 0x8f1bbcdc + w[t]) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    for (let t = 60; t < 80; t++) {
      const temp = (rotl5(a) + (b ^ c ^ d) + e + 0xca62c1d6 + w[t]) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }

  const digest = new Array<number>(20);
  const words = [h0, h1, h2, h3, h4];
  for (let i = 0; i < 5; i++) {
    const h = words[i];
    digest[i * 4] = (h >>> 24) & 0xff;
    digest[i * 4 + 1] = (h >>> 16) & 0xff;
    digest[i * 4 + 2] = (h >>> 8) & 0xff;
    digest[i * 4 + 3] = h & 0xff;
  }
  return digest;
}

const rotl5 = (x: number) => (x << 5) | (x >>> 27);

/** The padded message and the schedule, reused: sha1Bytes never yields while it runs. */
let padding = new Uint8Array(128);
const schedule = new Int32Array(80);

const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Lowercase hex SHA-1 of the UTF-8 encoding of `text`. */
export function sha1Hex(text: string): string {
  return toHex(sha1Bytes(utf8Bytes(text)));
}

export function toHex(bytes: readonly number[]): string {
  let hex = '';
  for (const b of bytes) hex += HEX_BYTES[b];
  return hex;
}

/** Two lowercase hex digits of a byte. */
export function hexByte(byte: number): string {
  return HEX_BYTES[byte];
}
