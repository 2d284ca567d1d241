import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which webhook targets the service may call. By default only public unicast addresses:
 * a provider URL must not reach the service's own network (SSRF), e.g. cloud metadata at
 * 169.254.169.254 or an internal admin API.
 */
export interface WebhookTargetPolicy {
  /** Allows private, loopback and link-local targets (development, tests, on-premises). */
  readonly allowPrivate: boolean;
  /**
   * Allowed even when not public: host names (exact, case-insensitive), CIDR ranges, and single
   * endpoints written as an IP address and port (`127.0.0.1:3003`, `[::1]:3003`), which allow
   * that port only, e.g. a local receiver without opening the rest of loopback.
   */
  readonly allowlist: readonly string[];
}

export const PUBLIC_TARGETS_ONLY: WebhookTargetPolicy = { allowPrivate: false, allowlist: [] };

export class WebhookTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookTargetError';
  }
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * `null` for a public unicast address; otherwise the kind of address it is (ipaddr.js range
 * names: loopback, private, linkLocal, uniqueLocal, multicast, unspecified, carrierGradeNat,
 * reserved, 6to4, teredo, rfc6052...). IPv4-mapped IPv6 addresses are judged as the IPv4
 * address they carry; translation and tunnel prefixes are refused because they can reach one.
 */
export function nonPublicRangeOf(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const parsed = ipaddr.process(address);
  // ipaddr.js calls the deprecated IPv4-compatible block (::a.b.c.d, RFC 4291 §2.5.5.1) unicast;
  // it is reserved, never a public target, and a stack that still honours it reaches a.b.c.d.
  const range = parsed.range();
  if (range !== 'unicast') return range;
  return parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : null;
}

function allowlistedHost(host: string, policy: WebhookTargetPolicy): boolean {
  const name = host.toLowerCase();
  return policy.allowlist.some(
    (entry) => !ipaddr.isValidCIDR(entry) && entry.toLowerCase() === name,
  );
}

function allowlistedAddress(address: string, policy: WebhookTargetPolicy): boolean {
  const parsed = ipaddr.process(address);
  return policy.allowlist.some((entry) => {
    if (!ipaddr.isValidCIDR(entry)) return false;
    const [network, bits] = ipaddr.parseCIDR(entry);
    return parsed.kind() === network.kind() && parsed.match(network, bits);
  });
}

const ENDPOINT_ENTRY = /^(?:\[([0-9a-fA-F:.]+)\]|(\d{1,3}(?:\.\d{1,3}){3})):(\d{1,5})$/;

/**
 * Whether an `address:port` entry names this IP literal and port. Only IP literals qualify: a
 * host name is checked at connection time by its DNS answer, where the port is not known.
 */
function allowlistedEndpoint(url: URL, policy: WebhookTargetPolicy): boolean {
  const host = hostOf(url);
  if (!ipaddr.isValid(host)) return false;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const address = ipaddr.process(host).toString();
  return policy.allowlist.some((entry) => {
    const match = ENDPOINT_ENTRY.exec(entry.trim());
    if (match === null) return false;
    const entryAddress = match[1] ?? match[2];
    return (
      ipaddr.isValid(entryAddress) &&
      ipaddr.process(entryAddress).toString() === address &&
      Number(match[3]) === port
    );
  });
}

/** Throws WebhookTargetError when the policy refuses to connect to `address` for `host`. */
export function assertAddressAllowed(host: string, address: string, policy: WebhookTargetPolicy) {
  if (policy.allowPrivate || allowlistedHost(host, policy)) return;
  const range = nonPublicRangeOf(address);
  if (range === null || allowlistedAddress(address, policy)) return;
  throw new WebhookTargetError(
    `${host} resolves to ${address}, a ${range} address; webhook targets must be public`,
  );
}

/**
 * Checks what can be checked without DNS: an http(s) URL without credentials, and, when the
 * host is an IP literal, the address itself. Returns the parsed URL.
 */
export function assertWebhookUrl(raw: string, policy: WebhookTargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError('The webhook URL is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new WebhookTargetError('The webhook URL must use http or https');
  }
  if (url.username || url.password) {
    throw new WebhookTargetError('The webhook URL must not contain credentials');
  }
  const host = hostOf(url);
  if (isIP(host) && !allowlistedEndpoint(url, policy)) assertAddressAllowed(host, host, policy);
  return url;
}

/** The URL's host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

type Resolve = (host: string) => Promise<LookupAddress[]>;

const resolveAll: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * The full check done at enrollment: the URL, then every address its host resolves to (one
 * non-public address refuses the URL, so a host cannot mix a public and a private answer).
 */
export async function assertWebhookTarget(
  raw: string,
  policy: WebhookTargetPolicy,
  resolve: Resolve = resolveAll,
): Promise<URL> {
  const url = assertWebhookUrl(raw, policy);
  const host = hostOf(url);
  if (isIP(host)) return url;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    throw new WebhookTargetError(unresolvedHostMessage(host, error));
  }
  if (addresses.length === 0) {
    throw new WebhookTargetError(`The host name ${host} has no address (DNS). Check the URL.`);
  }
  for (const { address } of addresses) assertAddressAllowed(host, address, policy);
  return url;
}

/** Resolver codes for a name that does not exist, or exists without an address. */
const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA', 'ENONAME']);
/** Resolver codes for a lookup that failed for now (no answer, a failing server). */
const TRY_AGAIN_CODES = new Set(['EAI_AGAIN', 'ETIMEOUT', 'ESERVFAIL', 'ECONNREFUSED', 'EAI_FAIL']);

/**
 * Why a host name could not be resolved at enrollment, in words for the URL field rather than
 * the resolver's `getaddrinfo ENOTFOUND`.
 */
function unresolvedHostMessage(host: string, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NOT_FOUND_CODES.has(code)) {
    return `The host name ${host} could not be found (DNS). Check the URL.`;
  }
  if (typeof code === 'string' && TRY_AGAIN_CODES.has(code)) {
    return `The host name ${host} could not be resolved: the DNS lookup failed for now. Try again in a moment.`;
  }
  return `The host name ${host} could not be resolved. Check the URL.`;
}

/**
 * A `lookup` for http.request / net.connect that applies the policy to the addresses the socket
 * is about to connect to. The check and the connection use the same DNS answer, so a name that
 * is re-pointed to a private address after enrollment (DNS rebinding) is refused at send time.
 */
export function guardedLookup(policy: WebhookTargetPolicy, resolve: Resolve = resolveAll) {
  const lookup = (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (...args: unknown[]) => void,
  ): void => {
    resolve(hostname)
      .then((addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses.filter((a) => family === 0 || a.family === family);
        if (usable.length === 0) throw new WebhookTargetError(`${hostname} has no address`);
        for (const { address } of usable) assertAddressAllowed(hostname, address, policy);
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      })
      .catch((error: unknown) => callback(error));
  };
  return lookup as unknown as LookupFunction;
}
