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

  it('removes its locks when the process exits without releasing them', () => {
    const folder = join(root(), 'postgres');
    // A process whose stop deadline passed exits with its claims still held.
    const script = `require(${JSON.stringify(join(__dirname, 'claim-data-folder'))})
      .claimDataFolder(${JSON.stringify(folder)}); process.exit(1);`;
    const exited = spawnSync(process.execPath, ['-r', 'ts-node/register', '-e', script], {
      env: { ...process.env, TS_NODE_SWC: 'true', TS_NODE_TRANSPILE_ONLY: 'true' },
      encoding: 'utf8',
    });
    expect(exited.stderr).toBe('');
    expect(exited.status).toBe(1);
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });
});
