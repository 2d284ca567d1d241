import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from './support/run-tool';

// No Docker engine runs where the tests do, so the image is checked as written; the Node it
// runs on is the one these checks read from its FROM line.
const dockerfile = readFileSync(join(repositoryRoot, 'Dockerfile'), 'utf8');
const packageJson = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
};

/** The instructions of a Dockerfile, continuation lines joined and comments dropped. */
function instructions(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Whether `version` satisfies a range of space-separated `>=x.y.z` / `<x.y.z` comparators. */
function satisfies(version: string, range: string): boolean {
  const parts = (v: string) => [...v.split('.').map(Number), 0, 0].slice(0, 3);
  const compare = (a: string, b: string) => {
    const [x, y] = [parts(a), parts(b)];
    const i = x.findIndex((n, k) => n !== y[k]);
    return i < 0 ? 0 : Math.sign(x[i] - y[i]);
  };
  return range.split(/\s+/).every((comparator) => {
    const [, op, bound] = /^(>=|<=|>|<)(\d+(?:\.\d+){0,2})$/.exec(comparator) ?? [];
    if (op === undefined) throw new Error(`unsupported comparator ${comparator}`);
    const order = compare(version, bound);
    return { '>=': order >= 0, '<=': order <= 0, '>': order > 0, '<': order < 0 }[op];
  });
}

describe('the container image', () => {
  const lines = instructions(dockerfile);
  const nodeImage = /^ARG NODE_IMAGE=(\S+)$/m.exec(lines.join('\n'))?.[1] ?? '';
  const finalStage = lines.slice(lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true));

  it('builds and runs on a pinned Node 26 LTS patch release', () => {
    expect(nodeImage).toMatch(/^node:26\.\d+\.\d+-trixie-slim$/);
    const froms = lines.filter((l) => l.startsWith('FROM '));
    expect(froms).toEqual(['FROM ${NODE_IMAGE} AS build', 'FROM ${NODE_IMAGE}']);
  });

  it('installs from the lock file and ships the build without dev dependencies', () => {
    expect(lines).toContain('RUN npm ci --no-audit --no-fund');
    expect(lines.join('\n')).toMatch(/npm prune --omit=dev/);
    expect(finalStage).toContain('COPY --from=build /app/dist ./dist');
    expect(finalStage).toContain('COPY --from=build /app/node_modules ./node_modules');
  });

  it('runs as the unprivileged node user and is healthy when /readyz on OPS_PORT answers', () => {
    expect(finalStage).toContain('USER node');
    const healthcheck = finalStage.find((l) => l.startsWith('HEALTHCHECK '));
    expect(healthcheck).toContain('CMD ["node", "-e"');
    expect(healthcheck).toContain(
      "'http://127.0.0.1:' + (process.env.OPS_PORT || 9400) + '/readyz'",
    );
  });

  it('declares the Node versions it supports: the tested one and the image one', () => {
    const imageNode = /^node:(\d+\.\d+\.\d+)/.exec(nodeImage)![1];
    expect(satisfies(imageNode, packageJson.engines.node)).toBe(true);
    expect(satisfies(process.versions.node, packageJson.engines.node)).toBe(true);
    expect(satisfies('20.18.0', packageJson.engines.node)).toBe(false);
    expect(satisfies('27.0.0', packageJson.engines.node)).toBe(false);
  });
});
