import { createHash } from 'node:crypto';
import { CLIENT_SCRIPT } from './client-script';
import { STYLES } from './styles';

export interface Asset {
  readonly path: string;
  readonly contentType: string;
  readonly body: string;
}

function asset(name: string, extension: string, contentType: string, body: string): Asset {
  // The content hash is in the path, so browsers may cache an asset for good.
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/assets/${name}.${hash}.${extension}`, contentType, body };
}

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#2450d3"/><path d="M16 6l8 3v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V9l8-3z" fill="none" stroke="#fff" stroke-width="2" stroke-linejoin="round"/></svg>';

export const ASSETS = {
  icon: asset('icon', 'svg', 'image/svg+xml', ICON),
  styles: asset('app', 'css', 'text/css; charset=utf-8', STYLES),
  script: asset('app', 'js', 'text/javascript; charset=utf-8', CLIENT_SCRIPT),
} as const;

export function findAsset(path: string): Asset | undefined {
  return Object.values(ASSETS).find((a) => a.path === path);
}
