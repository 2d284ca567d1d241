import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSecretBox, type SecretsKeySettings } from './load-secret-box';
import { SecretBox } from './secret-box';
import { SecretsKeyError } from './secrets-key-error';

const scratch = () => mkdtempSync(join(tmpdir(), 'vigil-key-'));
const embedded = (dataDir: string): SecretsKeySettings => ({
  dataDir,
  sharedDatabase: false,
  production: false,
});
const key = Buffer.alloc(32, 9);

function keyFile(content: string, mode = 0o600): string {
  const file = join(scratch(), 'vigil.key');
  writeFileSync(file, content, { mode });
  chmodSync(file, mode);
  return file;
}

function refusal(settings: SecretsKeySettings): string {
  try {
    loadSecretBox(settings);
  } catch (error) {
    expect(error).toBeInstanceOf(SecretsKeyError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('loadSecretBox', () => {
  it('takes the key from VIGIL_SECRETS_KEY in base64 or hex', () => {
    const expected = new SecretBox(key).keyId;
    for (const text of [key.toString('base64'), key.toString('hex')]) {
      const loaded = loadSecretBox({ ...embedded(scratch()), key: text, sharedDatabase: true });
      expect(loaded).toMatchObject({ source: 'VIGIL_SECRETS_KEY', generated: false });
      expect(loaded.box.keyId).toBe(expected);
    }
  });

  it('reads an owner-only key file', () => {
    const file = keyFile(`${key.toString('base64')}\n`);
    const loaded = loadSecretBox({ ...embedded(scratch()), keyFile: file, production: true });
    expect(loaded).toMatchObject({ source: 'VIGIL_SECRETS_KEY_FILE', file });
    expect(loaded.box.keyId).toBe(new SecretBox(key).keyId);
  });

  it('refuses a key file others can read, saying how to fix it', () => {
    const file = keyFile(key.toString('base64'), 0o644);
    expect(refusal({ ...embedded(scratch()), keyFile: file })).toBe(
      `VIGIL_SECRETS_KEY_FILE ${file} can be read or written by group or others (mode 0644); ` +
        `a key must be its owner's only: chmod 600 ${file}`,
    );
  });

  it('refuses a key file of the wrong length without showing its content', () => {
    const short = Buffer.alloc(16, 3).toString('base64');
    const message = refusal({ ...embedded(scratch()), keyFile: keyFile(short) });
    expect(message).toContain('does not hold a 32-byte key (it holds 24 characters;');
    expect(message).toContain('openssl rand -base64 32');
    expect(message).not.toContain(short);
    expect(refusal({ ...embedded(scratch()), keyFile: '/nonexistent/vigil.key' })).toContain(
      'VIGIL_SECRETS_KEY_FILE /nonexistent/vigil.key does not exist',
    );
  });

  it('generates an owner-only key in the embedded data folder once, then reuses it', () => {
    const dataDir = join(scratch(), 'data');
    const first = loadSecretBox(embedded(dataDir));
    expect(first).toMatchObject({ source: 'data folder', generated: true });
    expect(first.file).toBe(join(dataDir, 'secrets.key'));
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(readFileSync(first.file!, 'utf8')).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    const second = loadSecretBox(embedded(dataDir));
    expect(second.generated).toBe(false);
    expect(second.box.keyId).toBe(first.box.keyId);
  });

  it('refuses to start without a key with DATABASE_URL or in production', () => {
    expect(refusal({ ...embedded(scratch()), sharedDatabase: true })).toMatch(
      /^No secrets key: .*DATABASE_URL is set, so every instance must use the same key\. Set VIGIL_SECRETS_KEY/,
    );
    expect(refusal({ ...embedded(scratch()), production: true })).toContain(
      'NODE_ENV is production',
    );
  });
});
