import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFolderInUseError, claimDataFolder } from './claim-data-folder';

describe('claimDataFolder', () => {
  const root = () => mkdtempSync(join(tmpdir(), 'vigil-claim-'));

  it('nests within one process and removes the lock with the last release', () => {
    const folder = join(root(), 'postgres');
    const first = claimDataFolder(folder);
    const second = claimDataFolder(folder);
    first();
    first();
    expect(existsSync(`${folder}.lock`)).toBe(true);
    second();
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });

  it('refuses a folder a running process holds, naming it and the pid', () => {
    const folder = join(root(), 'log');
    // pid 1 always runs: a lock naming it is held.
    writeFileSync(`${folder}.lock`, '1');
    expect(() => claimDataFolder(folder)).toThrow(DataFolderInUseError);
    expect(() => claimDataFolder(folder)).toThrow(/in use by another Vigil process \(pid 1\)/);
  });

  it('takes over a lock left by a process that died', () => {
    const folder = join(root(), 'log');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(`${folder}.lock`, String(dead));
    const release = claimDataFolder(folder);
    release();
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });
});
