import { hexByte, sha1Bytes } from './sha1';
import { utf8Bytes } from './utf8-bytes';

/** Namespace of every id Vigil derives from names (a fixed, randomly chosen UUID). */
export const VIGIL_ID_NAMESPACE = '6f0c5a52-8f4e-4c1b-9a57-3c2e1d7b9e40';

/**
 * RFC 9562 version-5 UUID (SHA-1, name-based): the same namespace and name always give the same
 * id, so a replayed computation produces the ids it produced the first time.
 */
export function nameBasedUuid(name: string, namespace: string = VIGIL_ID_NAMESPACE): string {
  // Ids are derived for every decision: the name is encoded after a copy of the namespace's
  // bytes and the id written in one pass, rather than through joined arrays and hex slices.
  const digest = sha1Bytes(utf8Bytes(name, [...namespaceBytesOf(namespace)]));
  digest[6] = (digest[6] & 0x0f) | 0x50;
  digest[8] = (digest[8] & 0x3f) | 0x80;
  let id = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) id += '-';
    id += hexByte(digest[i]);
  }
  return id;
}

/** Every id is derived in the one namespace: its bytes are parsed once. */
let lastNamespace: { namespace: string; bytes: readonly number[] } | null = null;

function namespaceBytesOf(namespace: string): readonly number[] {
  if (lastNamespace?.namespace !== namespace) {
    const hex = namespace.replace(/-/g, '');
    if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new RangeError(`not a UUID: ${namespace}`);
    const bytes: number[] = [];
    for (let i = 0; i < 32; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
    lastNamespace = { namespace, bytes };
  }
  return lastNamespace.bytes;
}

/**
 * Builds an id from a list of parts. The parts are JSON-encoded together so that no choice of
 * values can make two different part lists collide ("a:b","c" vs "a","b:c").
 */
export function idFromParts(...parts: ReadonlyArray<string | number>): string {
  return nameBasedUuid(JSON.stringify(parts));
}
