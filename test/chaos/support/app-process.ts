import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { mainOf, repositoryRoot } from './compiled-apps';

/** The log line each app writes once it consumes or listens (apps/<app>/src/start-<app>.ts). */
const READY =
  /^(api listening|ingest listening|indexer running|notifier running|stream processor running|web listening)/;
const START_TIMEOUT_MS = 120_000;
const KEPT_LOG_LINES = 40;
/** When set, every line each app logs is appended to `<dir>/<app>.log`, kills included. */
const LOG_DIR = process.env.VIGIL_CHAOS_LOG_DIR;

/**
 * One Vigil app run as a real child process (`node <compiled>/apps/<app>/src/main.js`), so a
 * test can kill -9 it mid-work and start it again, and read its memory from /proc.
 */
export class AppProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private readonly recentLines: string[] = [];
  kills = 0;

  constructor(
    readonly app: string,
    private readonly buildDir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the app and resolves once it logged that it runs. */
  async start(): Promise<void> {
    if (this.child) throw new Error(`${this.app} is already running`);
    const child = spawn(process.execPath, [mainOf(this.buildDir, this.app)], {
      cwd: repositoryRoot,
      env: { ...this.env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let ready: () => void = () => undefined;
    const readiness = new Promise<void>((resolve) => (ready = resolve));
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        this.keep(line);
        if (READY.test(messageOf(line))) ready();
      });
    }
    const failure = this.exited.then(() => {
      throw new Error(`${this.app} exited before it was ready:\n${this.log()}`);
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${this.app} not ready in ${START_TIMEOUT_MS} ms:\n${this.log()}`)),
        START_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([readiness, failure, timeout]);
    } finally {
      clearTimeout(timer);
      failure.catch(() => undefined);
    }
  }

  /** SIGKILL: no shutdown hook runs, in-flight transactions and deliveries are cut. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGKILL');
    await this.exited;
    this.child = null;
    this.kills += 1;
    this.keep(`--- kill -9 #${this.kills} at ${new Date().toISOString()} ---`);
  }

  /** SIGTERM, the graceful stop; SIGKILL after a deadline. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await this.exited;
    clearTimeout(deadline);
    this.child = null;
  }

  /** Resident set size in bytes (VmRSS of /proc/<pid>/status), or null when not running. */
  rssBytes(): number | null {
    if (!this.child?.pid) return null;
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
      return kb ? Number(kb[1]) * 1024 : null;
    } catch {
      return null;
    }
  }

  /** The app's last log lines, for failure messages. */
  log(): string {
    return this.recentLines.join('\n');
  }

  private keep(line: string): void {
    if (LOG_DIR) {
      mkdirSync(LOG_DIR, { recursive: true });
      appendFileSync(join(LOG_DIR, `${this.app}.log`), `${line}\n`);
    }
    this.recentLines.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
    if (this.recentLines.length > KEPT_LOG_LINES) this.recentLines.shift();
  }
}

function messageOf(line: string): string {
  try {
    const parsed = JSON.parse(line) as { msg?: unknown };
    return typeof parsed.msg === 'string' ? parsed.msg : '';
  } catch {
    return '';
  }
}
