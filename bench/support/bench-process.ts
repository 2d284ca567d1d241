import { spawn } from 'node:child_process';
import { freePort } from '../../test/support/free-port';

export interface BenchProcess {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * An entry point of the repository (TypeScript, or built JavaScript) run in a node process of its own (so its CPU time
 * and memory can be read apart from the bench's), listening on a free port given in
 * `portVariable`. Ready once a request (POST unless `probeMethod` says otherwise) to `probePath`
 * is answered at all.
 */
export async function startBenchProcess(options: {
  readonly script: string;
  readonly env: NodeJS.ProcessEnv;
  readonly portVariable: string;
  readonly probePath: string;
  readonly probeMethod?: 'GET' | 'POST';
  readonly nodeFlags?: readonly string[];
}): Promise<BenchProcess> {
  // Below the ephemeral range, where no connection of the apps starting beside it can take it.
  const port = await freePort();
  // A built script (.js, under dist/) runs as deployed; a TypeScript one through ts-node, whose
  // compiler and caches take a few hundred MB of the process's memory.
  const loaders = options.script.endsWith('.js')
    ? []
    : ['-r', 'ts-node/register', '-r', 'tsconfig-paths/register'];
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), ...loaders, options.script],
    {
      cwd: `${__dirname}/../..`,
      env: { ...options.env, [options.portVariable]: String(port), TS_NODE_SWC: 'true' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 200) {
    const method = options.probeMethod ?? 'POST';
    const answered = await fetch(`${url}${options.probePath}`, { method }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (child.exitCode !== null || waited > 120_000) {
      throw new Error(`${options.script} did not start`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
