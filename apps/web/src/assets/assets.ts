import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Asset {
  readonly path: string;
  readonly contentType: string;
  readonly body: string;
}

/**
 * apps/web/assets, beside src both in the sources and in dist/ (the build copies it there), so
 * the same path serves them under ts-node, Jest and the compiled application.
 */
const ASSETS_DIR = join(__dirname, '..', '..', 'assets');

function asset(name: string, extension: string, contentType: string, body: string): Asset {
  // The content hash is in the path, so browsers may cache an asset for good.
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/assets/${name}.${hash}.${extension}`, contentType, body };
}

function file(name: string): string {
  return readFileSync(join(ASSETS_DIR, name), 'utf8');
}

export const ASSETS = {
  icon: asset('icon', 'svg', 'image/svg+xml', file('icon.svg')),
  styles: asset('app', 'css', 'text/css; charset=utf-8', file('styles.css')),
  script: asset('app', 'js', 'text/javascript; charset=utf-8', file('app.js')),
} as const;

export function findAsset(path: string): Asset | undefined {
  return Object.values(ASSETS).find((a) => a.path === path);
}
