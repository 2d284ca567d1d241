import { isIP } from 'node:net';

/**
 * Which proxies in front of an app are trusted to say who the client is (X-Forwarded-For), in
 * the form Express's `trust proxy` setting takes: `false` (none: the address of the connection
 * is the client's), a hop count (that many proxies, nearest first), or the proxies' addresses
 * and CIDR ranges (and the names `loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = false | number | readonly string[];

const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Whether `entry` is an address, a CIDR range or a range name that Express accepts. */
function isProxyEntry(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as a TrustProxy, or the reason it is refused. `true` is refused on purpose:
 * trusting every hop lets any client pick the address its sign-ins and limits are counted by.
 */
export function parseTrustProxy(text: string): TrustProxy | { readonly problem: string } {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') {
    return {
      problem:
        'true would trust any client to choose its own address; give the number of proxies (1) or their addresses and CIDR ranges',
    };
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= 10 ? hops : { problem: 'a hop count is at most 10' };
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const wrong = entries.filter((e) => !isProxyEntry(e));
  if (wrong.length > 0) {
    return {
      problem: `not an address, CIDR range or loopback/linklocal/uniquelocal: ${wrong.join(', ')}`,
    };
  }
  return entries;
}

/** The value for Express's `app.set('trust proxy', …)`. */
export function trustProxySetting(trust: TrustProxy): boolean | number | string[] {
  return typeof trust === 'object' ? [...trust] : trust;
}
