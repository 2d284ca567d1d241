import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The version tag of a sealed value; a later format gets the next one. */
export const SEALED_VERSION = 'v1';
export const SECRETS_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED_FORMAT =
  /^v1:([A-Za-z0-9_-]{8}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]*):([A-Za-z0-9_-]{22})$/;

export type SecretOpenFailure = 'malformed' | 'other_key' | 'tampered';

/** A sealed value could not be opened. The message never contains the value. */
export class SecretOpenError extends Error {
  constructor(
    readonly reason: SecretOpenFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SecretOpenError';
  }
}

/** Whether a stored value is sealed (else it is a plaintext written before encryption). */
export function isSealed(value: string): boolean {
  return value.startsWith(`${SEALED_VERSION}:`);
}

/** The id of the key a sealed value was sealed under, or null for anything else. */
export function keyIdOfSealed(value: string): string | null {
  return SEALED_FORMAT.exec(value)?.[1] ?? null;
}

/**
 * Seals secrets for storage with AES-256-GCM (node:crypto): a random 12-byte IV per value, the
 * 16-byte tag, and associated data naming the row the value belongs to, so a ciphertext copied
 * into another row does not open. The stored form is
 * `v1:<key id>:<iv>:<ciphertext>:<tag>` in base64url; the key id (a hash of the key, which
 * reveals nothing of it) tells values sealed under an older key apart during a key rotation.
 */
export class SecretBox {
  readonly keyId: string;
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== SECRETS_KEY_BYTES) {
      throw new RangeError(`A secrets key is ${SECRETS_KEY_BYTES} bytes, not ${key.length}`);
    }
    this.#key = Buffer.from(key);
    this.keyId = createHash('sha256')
      .update('vigil secrets key id\0')
      .update(key)
      .digest()
      .subarray(0, 6)
      .toString('base64url');
  }

  /** A new key of the right length, from the system's random source. */
  static generateKey(): Buffer {
    return randomBytes(SECRETS_KEY_BYTES);
  }

  /** `plaintext` sealed for the row `context` names (e.g. `webhook_providers/<id>`). */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      SEALED_VERSION,
      this.keyId,
      iv.toString('base64url'),
      ciphertext.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join(':');
  }

  /** The plaintext of a value sealed for `context`; SecretOpenError when it cannot be. */
  open(sealed: string, context: string): string {
    const parts = SEALED_FORMAT.exec(sealed);
    if (parts === null) throw new SecretOpenError('malformed', 'The stored secret is not sealed');
    const [, keyId, iv, ciphertext, tag] = parts;
    if (keyId !== this.keyId) {
      throw new SecretOpenError(
        'other_key',
        `The stored secret was sealed under key ${keyId}, but the configured key is ${this.keyId}`,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretOpenError(
        'tampered',
        `The stored secret of ${context} does not authenticate: it was changed or belongs to another row`,
      );
    }
  }

  /** Never the key, whatever logs or serializes the box. */
  toJSON(): { keyId: string } {
    return { keyId: this.keyId };
  }
}
