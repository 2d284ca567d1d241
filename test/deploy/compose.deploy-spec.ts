import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot, runTool, toolWorks, yamlDocuments } from './support/run-tool';

/** The apps and their ops ports (the ops listener's defaults). */
const APPS: Readonly<Record<string, number>> = {
  api: 9400,
  ingest: 9401,
  web: 9402,
  'stream-processor': 9403,
  indexer: 9404,
  notifier: 9405,
};
const SERVERS = ['kafka', 'schema-registry', 'elasticsearch', 'postgres', 'mailpit'];
/** Metrics, alerts and the dashboard over the apps' ops ports. */
const MONITORING = ['prometheus', 'grafana'];

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  ports?: { published: number; target: number }[];
  profiles?: string[];
}
interface ComposeConfig {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const composeText = readFileSync(join(repositoryRoot, 'docker-compose.yml'), 'utf8');
const envExample = readFileSync(join(repositoryRoot, '.env.example'), 'utf8');

/** .env.example with every empty value filled, as an operator would. */
function filledEnvFile(dir: string): string {
  const path = join(dir, 'filled.env');
  writeFileSync(path, envExample.replace(/^([A-Z0-9_]+)=$/gm, '$1=filled-in-for-the-test'));
  return path;
}

function composeConfig(envFile: string, ...extra: string[]) {
  return runTool('docker-compose', ['--env-file', envFile, '-f', 'docker-compose.yml', ...extra]);
}

/** The services `up` starts without a profile (docker-compose v1's config lists them all). */
function started(config: ComposeConfig): Record<string, ComposeService> {
  return Object.fromEntries(Object.entries(config.services).filter(([, s]) => !s.profiles));
}

function parse(run: { status: number | null; stdout: string; stderr: string }): ComposeConfig {
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.status).toBe(0);
  return yamlDocuments(run.stdout)[0] as ComposeConfig;
}

describe('docker-compose.yml', () => {
  let dir: string;
  let envFile: string;
  let config: ComposeConfig;
  let twoOfEach: ComposeConfig;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-compose-'));
    envFile = filledEnvFile(dir);
    config = parse(composeConfig(envFile, 'config'));
    twoOfEach = parse(composeConfig(envFile, '--profile', 'two', 'config'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses to start while a required secret of .env.example is empty, naming it', () => {
    const run = composeConfig(join(repositoryRoot, '.env.example'), 'config');
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/set [A-Z_]+ in \.env \(see \.env\.example\)/);
  });

  it('runs every app as its own service beside Kafka, the registry, Elasticsearch, PostgreSQL and Mailpit', () => {
    expect(Object.keys(started(config)).sort()).toEqual(
      [...Object.keys(APPS), ...SERVERS, ...MONITORING, 'migrate'].sort(),
    );
    for (const [app, service] of Object.entries(config.services).filter(([n]) => n in APPS)) {
      expect(service.command).toEqual(['node', `dist/apps/${app}/src/main.js`]);
    }
    expect(config.services.migrate.command).toEqual([
      'node',
      'dist/apps/cli/src/main.js',
      'migrate',
    ]);
  });

  it('calls an app healthy when /readyz on its own ops port answers', () => {
    for (const [app, opsPort] of Object.entries(APPS)) {
      const service = config.services[app];
      expect(service.environment?.OPS_PORT).toBe(String(opsPort));
      expect(service.environment?.OPS_HOST).toBe('0.0.0.0');
      const check = service.healthcheck?.test ?? [];
      expect(check.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
      expect(check[3]).toContain("'http://127.0.0.1:' + process.env.OPS_PORT + '/readyz'");
    }
  });

  it('starts an app only once the servers are healthy and the migrations ran', () => {
    for (const app of Object.keys(APPS)) {
      const dependsOn = config.services[app].depends_on ?? {};
      for (const server of ['kafka', 'schema-registry', 'elasticsearch', 'postgres']) {
        expect(dependsOn[server]).toEqual({ condition: 'service_healthy' });
      }
      expect(dependsOn.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
    expect(config.services.notifier.depends_on?.mailpit).toEqual({
      condition: 'service_healthy',
    });
    // A service waited on as healthy has a health check of its own.
    for (const service of Object.values(config.services)) {
      for (const [name, { condition }] of Object.entries(service.depends_on ?? {})) {
        if (condition === 'service_healthy') {
          expect(config.services[name].healthcheck?.test?.length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('pins every image to a version, never latest', () => {
    for (const [name, service] of Object.entries(twoOfEach.services)) {
      const image = service.image ?? '';
      if (service.build !== undefined) {
        // Built here from the Dockerfile, which pins its own base image.
        expect(image).toMatch(/^vigil:/);
        continue;
      }
      expect({ name, image }).toEqual({
        name,
        image: expect.stringMatching(/^[a-z0-9./_-]+:v?\d+\.\d+(\.\d+)?(-[a-z0-9.]+)?$/) as unknown,
      });
    }
  });

  it('keeps data in named volumes', () => {
    expect(Object.keys(config.volumes ?? {}).sort()).toEqual(
      [
        'es-data',
        'kafka-data',
        'mailpit-data',
        'pg-data',
        'prometheus-data',
        'grafana-data',
      ].sort(),
    );
  });

  it('lists in .env.example every variable the compose file reads, the secrets to fill in', () => {
    const referenced = new Set([...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]));
    const listed = new Set([...envExample.matchAll(/^(?:# )?([A-Z0-9_]+)=/gm)].map((m) => m[1]));
    expect([...referenced].filter((name) => !listed.has(name))).toEqual([]);
    // A variable compose requires is one to fill in: empty and uncommented in the example.
    const required = [...composeText.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(
      new Set([
        'POSTGRES_PASSWORD',
        'VIGIL_ADMIN_PASSWORD',
        'VIGIL_SECRETS_KEY',
        'GRAFANA_ADMIN_PASSWORD',
      ]),
    );
    for (const name of required) expect(envExample).toMatch(new RegExp(`^${name}=$`, 'm'));
  });

  it('gives secrets only to the apps that use them, and sets secure cookies', () => {
    const holders = (variable: string) =>
      Object.entries(started(config))
        .filter(([, s]) => s.environment?.[variable] !== undefined)
        .map(([name]) => name)
        .sort();
    expect(holders('VIGIL_ADMIN_PASSWORD')).toEqual(['web']);
    expect(holders('VIGIL_SECRETS_KEY')).toEqual(['notifier', 'web']);
    // The web application emails invitation and password reset links.
    expect(holders('SMTP_PASSWORD')).toEqual(['notifier', 'web']);
    expect(config.services.web.environment?.SESSION_SECURE_COOKIES).toBe('true');
  });

  it('runs a second instance of each app with the profile two, on ports of its own', () => {
    for (const app of Object.keys(APPS)) {
      const second = twoOfEach.services[`${app}-2`];
      expect(second.profiles).toEqual(['two']);
      expect(second.command).toEqual(twoOfEach.services[app].command);
      expect(second.healthcheck).toEqual(twoOfEach.services[app].healthcheck);
    }
    const published = Object.values(twoOfEach.services).flatMap(
      (s) => s.ports?.map((p) => p.published) ?? [],
    );
    expect(new Set(published).size).toBe(published.length);
    expect(published.sort((a, b) => a - b)).toEqual([
      3000, 3001, 3002, 3010, 3011, 3012, 3300, 8025, 9090,
    ]);
  });

  const plugin = toolWorks('docker', ['compose', 'version']);
  if (!plugin) {
    console.info('docker compose (the plugin) is not installed: its check is skipped');
  }
  (plugin ? it : it.skip)('also parses with the docker compose plugin', () => {
    for (const profile of [[], ['--profile', 'two']]) {
      const run = runTool('docker', [
        'compose',
        '--env-file',
        envFile,
        '-f',
        'docker-compose.yml',
        ...profile,
        'config',
        '--quiet',
      ]);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    }
  });
});
