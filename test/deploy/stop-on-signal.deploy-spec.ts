import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { compileApps, mainOf, repositoryRoot } from '../chaos/support/compiled-apps';

jest.setTimeout(300_000);

/** What the README promises: TERM or INT stops Vigil within 15 s, ports and data folder free. */
const STOP_WITHIN_MS = 15_000;
const BANNER = /^Vigil is running[^]*?^ {2}sample data .*$/m;

interface Started {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** The embedded mode on a data folder and ports of its own: no servers, nothing shared. */
function embeddedEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VIGIL_DATA_DIR: dataDir,
    API_PORT: '0',
    INGEST_PORT: '0',
    WEB_PORT: '0',
    DEMO_INBOX_PORT: '0',
    DEMO_SMTP_PORT: '0',
    OPS_PORT: '0',
    LOG_LEVEL: 'info',
  };
  for (const name of [
    'KAFKA_BROKERS',
    'SCHEMA_REGISTRY_URL',
    'ELASTICSEARCH_URL',
    'DATABASE_URL',
    'SMTP_HOST',
    'SMTP_PORT',
  ]) {
    delete env[name];
  }
  return env;
}

const launched: ChildProcess[] = [];
/** Vigil processes started by `npm start`: not our children, so killed by pid. */
const strays: number[] = [];

function launch(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, {
    cwd: repositoryRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  launched.push(child);
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => lines.push(line));
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => lines.join('\n'), exited };
}

async function bannerOf(started: Started, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void started.exited.then(() => (exited = true));
  for (;;) {
    const banner = BANNER.exec(started.output());
    if (banner) return banner[0];
    if (exited) throw new Error(`Vigil exited before it was up:\n${started.output()}`);
    if (Date.now() > deadline)
      throw new Error(`Vigil not up in ${timeoutMs} ms:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every 127.0.0.1 port the banner names: web, API, ingest, inbox, SMTP. */
function portsIn(banner: string): number[] {
  return [...new Set([...banner.matchAll(/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1])))];
}

function canListenOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function lockFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.lock'));
}

/** Locks naming a running process: what would refuse the next start or the CLI. */
function heldLocksUnder(dir: string): string[] {
  return lockFilesUnder(dir).filter((file) =>
    isRunning(Number(readFileSync(join(dir, file), 'utf8').trim())),
  );
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function timeToExit(started: Started, signal: NodeJS.Signals) {
  const sentAt = Date.now();
  process.kill(started.child.pid!, signal);
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    started.exited,
    new Promise<'hung'>(
      (resolve) => (timer = setTimeout(() => resolve('hung'), STOP_WITHIN_MS + 5_000)),
    ),
  ]);
  clearTimeout(timer);
  return { code, ms: Date.now() - sentAt };
}

describe('stopping Vigil with a signal', () => {
  const dataDirs: string[] = [];
  const buildDir = join(repositoryRoot, '.vigil', 'deploy-test-build');
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-stop-'));
    dataDirs.push(dir);
    return join(dir, 'data');
  };

  beforeAll(async () => {
    await compileApps(buildDir);
  });

  afterEach(() => {
    // A failed test leaves nothing running.
    for (const child of launched.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    for (const pid of strays.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  });

  afterAll(() => {
    rmSync(buildDir, { recursive: true, force: true });
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'the all-in-one stops on %s within 15 s and frees its ports and data folder',
    async (signal) => {
      const data = dataDir();
      const vigil = launch(process.execPath, [mainOf(buildDir, 'all-in-one')], embeddedEnv(data));
      const ports = portsIn(await bannerOf(vigil, 120_000));
      // web, api, ingest, the demo inbox and SMTP server, and the ops listener
      expect(ports).toHaveLength(6);

      const stopped = await timeToExit(vigil, signal);

      expect(stopped.code).toBe(0);
      expect(stopped.ms).toBeLessThanOrEqual(STOP_WITHIN_MS);
      for (const port of ports) expect(await canListenOn(port)).toBe(true);
      expect(lockFilesUnder(data)).toEqual([]);
      expect(vigil.output()).toContain('all-in-one stopped');
    },
  );

  it('a signal during start-up ends the all-in-one within 15 s and leaves its data folder free', async () => {
    const data = dataDir();
    const vigil = launch(process.execPath, [mainOf(buildDir, 'all-in-one')], embeddedEnv(data));
    // The first lock taken: the embedded stores are opening, nothing listens yet.
    while (!existsSync(`${data}/log.lock`) && !existsSync(`${data}/postgres.lock`)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const stopped = await timeToExit(vigil, 'SIGTERM');

    // It stops once up, or, when creating the embedded database keeps its thread busy past the
    // deadline (a loaded machine), its watchdog kills it: either way in time, the folder free.
    expect(stopped.ms).toBeLessThanOrEqual(STOP_WITHIN_MS);
    expect(heldLocksUnder(data)).toEqual([]);
    expect(vigil.output()).toContain('all-in-one stopping');
  });

  it('TERM to the `npm start` process stops Vigil within 15 s and frees its ports', async () => {
    const data = dataDir();
    // npm start installs when needed and builds first: minutes on a busy machine.
    const npm = launch('npm', ['start'], embeddedEnv(data));
    const ports = portsIn(await bannerOf(npm, 240_000));
    const vigilPid = Number(/"pid":(\d+)/.exec(npm.output())?.[1]);
    strays.push(vigilPid);

    const stopped = await timeToExit(npm, 'SIGTERM');

    expect(stopped.ms).toBeLessThanOrEqual(STOP_WITHIN_MS);
    expect(isRunning(vigilPid)).toBe(false);
    for (const port of ports) expect(await canListenOn(port)).toBe(true);
    expect(lockFilesUnder(data)).toEqual([]);
    expect(npm.output()).toMatch(/building \(about .+\)\.\.\./);
  });
});
