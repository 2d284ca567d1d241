import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const OWNER_ONLY_DIRECTORY = 0o700;
const OWNER_ONLY_FILE = 0o600;

/**
 * Makes a data folder of the embedded mode readable by its owner only, whatever the umask it
 * was started under: the folder and every folder below it 0700, every file 0600. It also adds
 * 0077 to the process's umask, so files created afterwards (log segments, lock files, new
 * relations) are born owner-only too; PGlite extracts its initial files with explicit modes,
 * which is why the tree is also fixed after the fact. `create: false` leaves a missing folder
 * missing. The folder holds the database, its WAL,
 * the log and the secrets key, so no other local user may read any of it.
 */
export function makeFolderPrivate(folder: string, { create = true } = {}): void {
  restrictUmask();
  if (create) mkdirSync(folder, { recursive: true, mode: OWNER_ONLY_DIRECTORY });
  restrictTree(folder);
}

function restrictUmask(): void {
  // Worker threads may not change the process's umask; their files follow the main thread's.
  if (!isMainThread) return;
  const current = process.umask(0o077);
  process.umask(current | 0o077);
}

function restrictTree(path: string): void {
  let stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    // Removed while walking (a temporary file of the database): nothing to restrict.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (stats.isSymbolicLink()) return;
  if (stats.isDirectory()) {
    if ((stats.mode & 0o777) !== OWNER_ONLY_DIRECTORY) chmodSync(path, OWNER_ONLY_DIRECTORY);
    for (const entry of readdirSync(path)) restrictTree(join(path, entry));
  } else if ((stats.mode & 0o777) !== OWNER_ONLY_FILE) {
    chmodSync(path, OWNER_ONLY_FILE);
  }
}
