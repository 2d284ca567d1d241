import fc from 'fast-check';
import { SecretBox, SecretOpenError, isSealed, keyIdOfSealed } from './secret-box';

const key = Buffer.alloc(32, 1);
const box = new SecretBox(key);

function failureOf(open: () => unknown): string {
  try {
    open();
  } catch (error) {
    expect(error).toBeInstanceOf(SecretOpenError);
    return (error as SecretOpenError).reason;
  }
  throw new Error('expected the value not to open');
}

describe('SecretBox', () => {
  it('opens what it sealed, for any text', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (plaintext, context) => {
        expect(box.open(box.seal(plaintext, context), context)).toBe(plaintext);
      }),
    );
  });

  it('seals as v1:<key id>:<iv>:<ciphertext>:<tag> without the plaintext, a new IV each time', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const first = box.seal(secret, 'webhook_providers/a');
    const second = box.seal(secret, 'webhook_providers/a');
    expect(first).toMatch(/^v1:[\w-]{8}:[\w-]{16}:[\w-]+:[\w-]{22}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('whsec_');
    expect(isSealed(first)).toBe(true);
    expect(isSealed(secret)).toBe(false);
    expect(keyIdOfSealed(first)).toBe(box.keyId);
    expect(keyIdOfSealed(secret)).toBeNull();
  });

  it('refuses a value sealed for another row', () => {
    const sealed = box.seal('whsec_x', 'webhook_providers/a');
    expect(failureOf(() => box.open(sealed, 'webhook_providers/b'))).toBe('tampered');
  });

  it('refuses a changed ciphertext or tag', () => {
    const sealed = box.seal('whsec_abcdef', 'ctx');
    const parts = sealed.split(':');
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    for (const index of [2, 3, 4]) {
      const changed = parts.map((p, i) => (i === index ? flip(p) : p)).join(':');
      expect(failureOf(() => box.open(changed, 'ctx'))).toBe('tampered');
    }
  });

  it('names the key a value was sealed under when another key is configured', () => {
    const other = new SecretBox(Buffer.alloc(32, 2));
    const sealed = other.seal('whsec_x', 'ctx');
    expect(other.keyId).not.toBe(box.keyId);
    expect(() => box.open(sealed, 'ctx')).toThrow(
      `sealed under key ${other.keyId}, but the configured key is ${box.keyId}`,
    );
    expect(failureOf(() => box.open('whsec_plain', 'ctx'))).toBe('malformed');
  });

  it('keeps the key out of JSON and refuses a key of the wrong length', () => {
    expect(JSON.stringify({ box })).toBe(`{"box":{"keyId":"${box.keyId}"}}`);
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow('A secrets key is 32 bytes, not 16');
    expect(SecretBox.generateKey()).toHaveLength(32);
  });
});
