import { hash, randomBytes } from 'node:crypto';

/**
 * API token values (DESIGN.md §6): `vgk1-` + 32 random bytes in base62 (always 43 characters,
 * left-padded with `0`) + a 6-character base62 CRC-32 of those 43 characters.
 *
 * - The prefix lets secret scanners find leaked tokens.
 * - The checksum rejects a mistyped or made-up value without a database lookup. CRC-32 detects
 *   every error burst of up to 32 bits, so every single-character substitution in the body is
 *   caught; a change in the checksum itself never matches either. A random string of the right
 *   shape passes with probability 2^-32.
 * - Only SHA-256(value) and the last four characters are stored. A fast hash is enough here:
 *   the value carries 256 bits of entropy, so there is nothing to brute-force.
 */
export const TOKEN_PREFIX = 'vgk1-';
export const TOKEN_BODY_LENGTH = 43;
export const TOKEN_CHECKSUM_LENGTH = 6;
export const TOKEN_LENGTH = TOKEN_PREFIX.length + TOKEN_BODY_LENGTH + TOKEN_CHECKSUM_LENGTH;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SHAPE = new RegExp(
  `^${TOKEN_PREFIX}[0-9A-Za-z]{${TOKEN_BODY_LENGTH}}[0-9A-Za-z]{${TOKEN_CHECKSUM_LENGTH}}$`,
);

/** Base62 of an unsigned big-endian integer, left-padded with `0` to `length` characters. */
export function base62Encode(bytes: Uint8Array, length: number): string {
  let n = bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  if (out.length > length) throw new RangeError(`value does not fit in ${length} base62 digits`);
  return out.padStart(length, ALPHABET[0]);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, as in zlib) of a string's ASCII bytes. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) {
    crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function checksumOf(body: string): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32(body));
  return base62Encode(bytes, TOKEN_CHECKSUM_LENGTH);
}

/** A new token value from 32 bytes of the operating system's CSPRNG. */
export function generateTokenValue(random: (size: number) => Uint8Array = randomBytes): string {
  const body = base62Encode(random(32), TOKEN_BODY_LENGTH);
  return `${TOKEN_PREFIX}${body}${checksumOf(body)}`;
}

export type ParsedTokenValue =
  | { ok: true; value: string; lastFour: string }
  | { ok: false; reason: 'malformed' | 'bad_checksum' };

/**
 * Checks a presented value's shape and checksum. No I/O: this is the only step that may return
 * early for an invalid token (see ApiTokenService.authenticate).
 */
export function parseTokenValue(value: unknown): ParsedTokenValue {
  if (typeof value !== 'string' || value.length !== TOKEN_LENGTH || !SHAPE.test(value)) {
    return { ok: false, reason: 'malformed' };
  }
  const body = value.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + TOKEN_BODY_LENGTH);
  const checksum = value.slice(TOKEN_PREFIX.length + TOKEN_BODY_LENGTH);
  if (checksum !== checksumOf(body)) return { ok: false, reason: 'bad_checksum' };
  return { ok: true, value, lastFour: value.slice(-4) };
}

/** SHA-256 of the whole value: the only form of the secret that is stored. */
export function hashTokenValue(value: string): Buffer {
  // One-shot: every API and ingest request hashes its token.
  return hash('sha256', value, 'buffer');
}
