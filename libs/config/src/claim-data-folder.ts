import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeFolderPrivate } from './make-folder-private';

/** Another process holds a data folder of the embedded mode. */
export class DataFolderInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(
      `${folder} is in use by another Vigil process (pid ${pid}). The embedded adapters keep ` +
        'their data for one process at a time: stop that process first, or point this one at ' +
        'the real servers (KAFKA_BROKERS, DATABASE_URL).',
    );
    this.name = 'DataFolderInUseError';
  }
}

const claims = new Map<string, { lockFile: string; holders: number }>();
let releasesOnExit = false;

/**
 * A process that exits without stopping cleanly (its stop deadline passed) still removes its
 * locks, so the next start and the CLI find the folder free at once.
 */
function releaseAllOnExit(): void {
  for (const { lockFile } of claims.values()) {
    try {
      unlinkSync(lockFile);
    } catch {
      // Already gone: nothing to release.
    }
  }
  claims.clear();
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims `folder` (an absolute path) for this process with a `<folder>.lock` file holding the
 * pid, so a second process (the CLI while the service runs, a second `npm start`) fails with a
 * clear message instead of corrupting files written by the first. Claims nest within one
 * process; the returned function releases one. A lock left by a process that died is taken over.
 * The folder is made owner-only (makeFolderPrivate) when claimed and again when released, so the
 * files its adapter wrote in between are too.
 */
export function claimDataFolder(folder: string): () => void {
  const held = claims.get(folder);
  if (held) {
    held.holders += 1;
    return releaseOnce(folder);
  }
  const lockFile = `${folder}.lock`;
  makeFolderPrivate(folder);
  mkdirSync(dirname(lockFile), { recursive: true });
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const pid = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid)) {
        throw new DataFolderInUseError(folder, pid);
      }
      unlinkSync(lockFile);
    }
  }
  if (!releasesOnExit) {
    releasesOnExit = true;
    process.on('exit', releaseAllOnExit);
  }
  claims.set(folder, { lockFile, holders: 1 });
  return releaseOnce(folder);
}

function releaseOnce(folder: string): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const held = claims.get(folder);
    if (!held) return;
    held.holders -= 1;
    if (held.holders > 0) return;
    claims.delete(folder);
    makeFolderPrivate(folder, { create: false });
    try {
      unlinkSync(held.lockFile);
    } catch {
      // Already gone: nothing to release.
    }
  };
}
