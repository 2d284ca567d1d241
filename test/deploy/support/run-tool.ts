import { loadAll } from 'js-yaml';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const repositoryRoot = join(__dirname, '..', '..', '..');

export interface ToolRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command line tool to the end (docker-compose, kubectl), from the repository root. */
export function runTool(
  command: string,
  args: readonly string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): ToolRun {
  const run = spawnSync(command, args, {
    cwd: options.cwd ?? repositoryRoot,
    input: options.input,
    env: options.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Whether `command args` runs and exits 0 (a tool or a plugin being installed). */
export function toolWorks(command: string, args: readonly string[]): boolean {
  try {
    return runTool(command, args).status === 0;
  } catch {
    return false;
  }
}

/** The documents of a YAML stream (a compose file, rendered manifests) as plain values. */
export function yamlDocuments(text: string): unknown[] {
  return loadAll(text).filter((document) => document !== null && document !== undefined);
}
