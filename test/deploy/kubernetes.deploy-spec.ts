import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot, runTool, yamlDocuments } from './support/run-tool';

const APPS: Readonly<Record<string, { opsPort: number; autoscaled: boolean }>> = {
  api: { opsPort: 9400, autoscaled: true },
  ingest: { opsPort: 9401, autoscaled: true },
  web: { opsPort: 9402, autoscaled: false },
  'stream-processor': { opsPort: 9403, autoscaled: false },
  indexer: { opsPort: 9404, autoscaled: false },
  notifier: { opsPort: 9405, autoscaled: false },
};

interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
  }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean };
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean };
}
interface K8sObject {
  kind: string;
  metadata: { name: string; namespace?: string };
  data?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string> };
    podSelector?: { matchLabels?: Record<string, string> };
    scaleTargetRef?: { kind: string; name: string };
    minReplicas?: number;
    maxReplicas?: number;
    policyTypes?: string[];
    template?: { metadata?: { labels?: Record<string, string> }; spec: PodSpec };
  };
}

/** `kubectl kustomize` of one directory under deploy/kubernetes, parsed. */
function render(root: string, path: string): K8sObject[] {
  const run = runTool('kubectl', ['kustomize', join(root, path)]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return yamlDocuments(run.stdout) as K8sObject[];
}

/** deploy/kubernetes with the production overlay's secrets.env filled in, as an operator does. */
function withSecrets(dir: string): string {
  const copy = join(dir, 'kubernetes');
  cpSync(join(repositoryRoot, 'deploy', 'kubernetes'), copy, { recursive: true });
  const overlay = join(copy, 'overlays', 'production');
  const example = readFileSync(join(overlay, 'secrets.env.example'), 'utf8');
  writeFileSync(
    join(overlay, 'secrets.env'),
    example.replace(/^(DATABASE_URL|VIGIL_ADMIN_PASSWORD|VIGIL_SECRETS_KEY)=$/gm, '$1=filled-in'),
  );
  return copy;
}

const find = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);

function matches(selector: Record<string, string> | undefined, labels: Record<string, string>) {
  return (
    selector !== undefined &&
    Object.entries(selector).every(([key, value]) => labels[key] === value)
  );
}

function podsOf(objects: K8sObject[]): { name: string; spec: PodSpec }[] {
  return objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
    .map((o) => ({ name: `${o.kind}/${o.metadata.name}`, spec: o.spec!.template!.spec }));
}

describe('deploy/kubernetes', () => {
  let dir: string;
  const renderings: Record<string, K8sObject[]> = {};

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-kustomize-'));
    const root = withSecrets(dir);
    renderings.base = render(root, 'base');
    renderings.production = render(root, 'overlays/production');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe.each(['base', 'production'])('rendered %s', (name) => {
    const objects = () => renderings[name];

    it('has a Deployment per app running its entry point, probed on the ops port', () => {
      for (const [app, { opsPort }] of Object.entries(APPS)) {
        const deployment = find(objects(), 'Deployment', `vigil-${app}`);
        expect(deployment).toBeDefined();
        const [container] = deployment!.spec!.template!.spec.containers;
        expect(container.command).toEqual(['node', `dist/apps/${app}/src/main.js`]);
        expect(container.ports).toContainEqual({ name: 'ops', containerPort: opsPort });
        expect(container.env).toContainEqual({ name: 'OPS_PORT', value: String(opsPort) });
        expect(container.livenessProbe?.httpGet).toEqual({ path: '/livez', port: 'ops' });
        expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'ops' });
        expect(container.startupProbe?.httpGet).toEqual({ path: '/livez', port: 'ops' });
      }
    });

    it('gives every container requests and limits, a pinned image and no root', () => {
      for (const pod of podsOf(objects())) {
        expect(pod.spec.securityContext?.runAsNonRoot).toBe(true);
        for (const container of pod.spec.containers) {
          const where = `${pod.name} ${container.name}`;
          expect({ where, resources: container.resources }).toEqual({
            where,
            resources: {
              requests: {
                cpu: expect.any(String) as unknown,
                memory: expect.any(String) as unknown,
              },
              limits: { cpu: expect.any(String) as unknown, memory: expect.any(String) as unknown },
            },
          });
          expect({ where, image: container.image }).toEqual({
            where,
            image: expect.stringMatching(/:\d+\.\d+\.\d+$/) as unknown,
          });
          expect(container.image).not.toMatch(/:latest$/);
          expect(container.securityContext).toMatchObject({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
          });
        }
      }
    });

    it('keeps each app available through drains and scales api and ingest on load', () => {
      for (const [app, { autoscaled }] of Object.entries(APPS)) {
        const deployment = find(objects(), 'Deployment', `vigil-${app}`)!;
        const podLabels = deployment.spec!.template!.metadata!.labels!;
        const budget = objects().find(
          (o) =>
            o.kind === 'PodDisruptionBudget' && matches(o.spec?.selector?.matchLabels, podLabels),
        );
        expect({ app, budget: budget?.metadata.name }).toEqual({ app, budget: `vigil-${app}` });
        const autoscaler = objects().find(
          (o) =>
            o.kind === 'HorizontalPodAutoscaler' &&
            o.spec?.scaleTargetRef?.name === deployment.metadata.name,
        );
        if (autoscaled) {
          expect(autoscaler?.spec?.scaleTargetRef?.kind).toBe('Deployment');
          expect(autoscaler?.spec?.minReplicas).toBeGreaterThanOrEqual(2);
          // The autoscaler owns the count: a replicas field would fight it on every apply.
          expect(deployment.spec?.replicas).toBeUndefined();
        } else {
          expect(autoscaler).toBeUndefined();
          expect(deployment.spec?.replicas).toBeGreaterThanOrEqual(2);
        }
      }
    });

    it('runs no more stream processors than the topics have partitions', () => {
      const processor = find(objects(), 'Deployment', 'vigil-stream-processor')!;
      const [container] = processor.spec!.template!.spec.containers;
      const fromEnv = container.env?.find((e) => e.name === 'VIGIL_TOPIC_PARTITIONS')?.value;
      const fromConfig = (container.envFrom ?? [])
        .map((source) => find(objects(), 'ConfigMap', source.configMapRef?.name ?? ''))
        .map((config) => config?.data?.VIGIL_TOPIC_PARTITIONS)
        .find((value) => value !== undefined);
      const partitions = Number(fromEnv ?? fromConfig);
      expect(partitions).toBeGreaterThan(0);
      expect(processor.spec!.replicas).toBeLessThanOrEqual(partitions);
    });

    it('reads secrets and settings only from Secrets and ConfigMaps that exist, key by key', () => {
      const usesSecret = new Set<string>();
      for (const pod of podsOf(objects())) {
        for (const container of pod.spec.containers) {
          for (const source of container.envFrom ?? []) {
            const ref = source.configMapRef ?? source.secretRef;
            const kind = source.configMapRef ? 'ConfigMap' : 'Secret';
            expect({
              pod: pod.name,
              ref: ref?.name,
              found: !!find(objects(), kind, ref!.name),
            }).toEqual({ pod: pod.name, ref: ref?.name, found: true });
          }
          for (const variable of container.env ?? []) {
            const ref = variable.valueFrom?.secretKeyRef;
            if (!ref) continue;
            usesSecret.add(variable.name);
            const secret = find(objects(), 'Secret', ref.name);
            expect({
              pod: pod.name,
              key: ref.key,
              found: secret?.data?.[ref.key] !== undefined,
            }).toEqual({ pod: pod.name, key: ref.key, found: true });
          }
        }
      }
      expect([...usesSecret].sort()).toEqual(
        ['DATABASE_URL', 'SMTP_PASSWORD', 'VIGIL_ADMIN_PASSWORD', 'VIGIL_SECRETS_KEY'].sort(),
      );
    });

    it('denies traffic by default and has a NetworkPolicy for each app and the migration', () => {
      const policies = objects().filter((o) => o.kind === 'NetworkPolicy');
      const denyAll = policies.find((p) => p.metadata.name === 'vigil-default-deny');
      expect(denyAll?.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
      for (const pod of objects().filter((o) => o.kind === 'Deployment' || o.kind === 'Job')) {
        const labels = pod.spec!.template!.metadata!.labels!;
        const own = policies.filter(
          (p) => p !== denyAll && matches(p.spec?.podSelector?.matchLabels, labels),
        );
        expect({ pod: pod.metadata.name, policies: own.map((p) => p.metadata.name) }).toEqual({
          pod: pod.metadata.name,
          policies: expect.arrayContaining([pod.metadata.name, 'vigil-allow-dns']) as unknown,
        });
        expect(matches(denyAll?.spec?.podSelector?.matchLabels, labels)).toBe(true);
      }
    });

    it('runs the migrations in a Job', () => {
      const job = find(objects(), 'Job', 'vigil-migrate');
      expect(job?.spec?.template?.spec.containers[0].command).toEqual([
        'node',
        'dist/apps/cli/src/main.js',
        'migrate',
      ]);
    });
  });

  it('puts production in its namespace, with its own image registry and secrets', () => {
    const production = renderings.production;
    const namespaced = production.filter((o) => o.kind !== 'Namespace');
    expect(new Set(namespaced.map((o) => o.metadata.namespace))).toEqual(new Set(['vigil']));
    const secret = production.find((o) => o.kind === 'Secret')!;
    expect(Buffer.from(secret.data!.DATABASE_URL, 'base64').toString()).toBe('filled-in');
    for (const pod of podsOf(production)) {
      expect(pod.spec.containers[0].image).toMatch(/^registry\.example\.invalid\/security\/vigil:/);
    }
  });
});
