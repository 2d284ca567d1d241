import { transformFile } from '@swc/core';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const SOURCE_DIRS = ['apps', 'libs'];
const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;
/** Files the apps read at run time, copied beside them as `npm run build` does. */
const RUNTIME_FILES = ['apps/web/assets'];

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') && !TEST_FILE.test(entry.name) ? [path] : [];
  });
}

/**
 * The apps and libs transpiled (no type check) into `outDir` inside the clone, so `node
 * <outDir>/apps/<app>/src/main.js` resolves node_modules as dist/ does. A child process then
 * starts in about a second where ts-node takes tens of seconds on a busy two-core machine, and
 * nothing depends on a prior `npm run build`.
 */
export async function compileApps(outDir: string): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  const files = SOURCE_DIRS.flatMap((dir) => sourcesUnder(join(ROOT, dir)));
  await Promise.all(
    files.map(async (file) => {
      const { code } = await transformFile(file, {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
        sourceMaps: false,
        swcrc: false,
      });
      const target = join(outDir, relative(ROOT, file)).replace(/\.ts$/, '.js');
      const libsFromTarget = relative(dirname(target), join(outDir, 'libs'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(
        target,
        code.replace(
          /require\("@vigil\/([a-z-]+)"\)/g,
          (_, lib: string) => `require("${libsFromTarget}/${lib}/src/index.js")`,
        ),
      );
    }),
  );
  for (const dir of RUNTIME_FILES) {
    cpSync(join(ROOT, dir), join(outDir, dir), { recursive: true });
  }
  return outDir;
}

/** Where a compiled app's entry point is. */
export function mainOf(outDir: string, app: string): string {
  return join(outDir, 'apps', app, 'src', 'main.js');
}

export const repositoryRoot = ROOT;
