import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFolderPrivate } from './make-folder-private';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('makeFolderPrivate', () => {
  const previousUmask = process.umask();
  afterEach(() => process.umask(previousUmask));

  it('makes an existing tree owner-only: folders 0700, files 0600', () => {
    process.umask(0o022);
    const root = mkdtempSync(join(tmpdir(), 'vigil-private-'));
    const folder = join(root, 'data');
    mkdirSync(join(folder, 'postgres', 'pg_wal'), { recursive: true, mode: 0o755 });
    writeFileSync(join(folder, 'postgres', 'pg_wal', '000001'), 'x', { mode: 0o666 });
    writeFileSync(join(folder, 'secrets.key'), 'x', { mode: 0o644 });
    makeFolderPrivate(folder);
    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(join(folder, 'postgres'))).toBe(0o700);
    expect(modeOf(join(folder, 'postgres', 'pg_wal'))).toBe(0o700);
    expect(modeOf(join(folder, 'postgres', 'pg_wal', '000001'))).toBe(0o600);
    expect(modeOf(join(folder, 'secrets.key'))).toBe(0o600);
  });

  it('creates a missing folder 0700, and later files are owner-only under umask 022', () => {
    process.umask(0o022);
    const folder = join(mkdtempSync(join(tmpdir(), 'vigil-private-')), 'a', 'b');
    makeFolderPrivate(folder);
    expect(modeOf(folder)).toBe(0o700);
    writeFileSync(join(folder, 'segment'), 'x');
    mkdirSync(join(folder, 'topic'));
    expect(modeOf(join(folder, 'segment'))).toBe(0o600);
    expect(modeOf(join(folder, 'topic'))).toBe(0o700);
  });
});
