import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/** Debian's `prometheus` package; `npm test` installs it when missing. */
export const PROMETHEUS_BINARY = process.env.VIGIL_PROMETHEUS ?? '/usr/bin/prometheus';

export interface ScrapeTarget {
  /** The job name, as deploy/prometheus/prometheus.yml names them (vigil-<app>). */
  job: string;
  /** The ops listener's base URL (http://host:port). */
  url: string;
}

export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface LoadedRule {
  group: string;
  name: string;
  type: 'alerting' | 'recording';
  query: string;
  state?: string;
}

/**
 * A real Prometheus for a test: scrapes the given ops listeners every second, evaluates
 * `rulesFile` every second with every `for:` duration replaced by `forDuration` (so an alert
 * that would wait 10 minutes fires at once; the expressions are the ones shipped), and answers
 * its HTTP API. Its data lives in a temporary folder removed by `stop()`.
 */
export class PrometheusServer {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly folder: string,
    private readonly output: string[],
  ) {}

  static async start(options: {
    targets: readonly ScrapeTarget[];
    rulesFile: string;
    forDuration?: string;
  }): Promise<PrometheusServer> {
    const folder = mkdtempSync(join(tmpdir(), 'vigil-prometheus-'));
    const rules = readFileSync(options.rulesFile, 'utf8').replace(
      /^(\s+)for: \S+$/gm,
      `$1for: ${options.forDuration ?? '0s'}`,
    );
    writeFileSync(join(folder, 'alerts.yml'), rules);
    const byJob = new Map<string, string[]>();
    for (const { job, url } of options.targets) {
      byJob.set(job, [...(byJob.get(job) ?? []), `'${new URL(url).host}'`]);
    }
    const jobs = [...byJob].map(([job, hosts]) =>
      [
        `  - job_name: ${job}`,
        `    static_configs:`,
        `      - targets: [${hosts.join(', ')}]`,
      ].join('\n'),
    );
    writeFileSync(
      join(folder, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  scrape_timeout: 1s',
        '  evaluation_interval: 1s',
        'rule_files:',
        '  - alerts.yml',
        'scrape_configs:',
        ...jobs,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    const output: string[] = [];
    const child = spawn(
      PROMETHEUS_BINARY,
      [
        `--config.file=${join(folder, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(folder, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    }
    const server = new PrometheusServer(`http://127.0.0.1:${port}`, child, folder, output);
    try {
      await server.waitUntilReady();
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  /** An instant query; throws when Prometheus refuses the expression. */
  async query(expr: string): Promise<Sample[]> {
    const response = await fetch(`${this.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await response.json()) as {
      status: string;
      error?: string;
      data?: { resultType: string; result: Sample[] | [number, string] };
    };
    if (body.status !== 'success') throw new Error(`${expr}: ${body.error ?? response.status}`);
    const { resultType, result } = body.data!;
    if (resultType === 'scalar') return [{ metric: {}, value: result as [number, string] }];
    return result as Sample[];
  }

  /** Every rule Prometheus loaded, with its expression as Prometheus prints it. */
  async rules(): Promise<LoadedRule[]> {
    const response = await fetch(`${this.url}/api/v1/rules`);
    const body = (await response.json()) as {
      data: { groups: { name: string; rules: Omit<LoadedRule, 'group'>[] }[] };
    };
    return body.data.groups.flatMap((group) =>
      group.rules.map((rule) => ({ ...rule, group: group.name })),
    );
  }

  /** The alerts firing now, by name. */
  async firing(): Promise<Set<string>> {
    const samples = await this.query('ALERTS{alertstate="firing"}');
    return new Set(samples.map((s) => s.metric.alertname));
  }

  /** What Prometheus printed, for a failure message. */
  log(): string {
    return this.output.join('').slice(-4000);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.folder, { recursive: true, force: true });
  }

  private async waitUntilReady(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) {
        throw new Error(`prometheus exited with ${this.child.exitCode}:\n${this.log()}`);
      }
      const ready = await fetch(`${this.url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`prometheus not ready within 30 s:\n${this.log()}`);
  }
}
