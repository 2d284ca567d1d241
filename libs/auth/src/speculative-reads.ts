import { rememberedTokenKey } from './remembered-token-key';

export interface SpeculativeReadsOptions {
  /** How many tokens are remembered; the one authorized longest ago is forgotten first. */
  readonly capacity?: number;
  /** How long a successful authorization vouches for the token's next requests. */
  readonly ttlMs?: number;
  readonly clock?: () => number;
}

export interface SpeculativeRead<T> {
  /** The bearer token presented, if any. */
  readonly token: string | undefined;
  /** Every check of the request (token, rate limit, scope); rejects with the refusal. */
  readonly authorize: () => Promise<void>;
  /** The read-only work the request asks for; never started for a refused request. */
  readonly read: () => Promise<T>;
}

const DEFAULT_CAPACITY = 4_096;
const DEFAULT_TTL_MS = 60_000;

/**
 * Overlaps a read-only request's authorization with its read, but only for a token whose
 * previous request passed every check recently, so an unauthenticated caller (token
 * checksums are forgeable) cannot make the server search. Authorization still runs in full for
 * every request and is awaited before anything is answered: a refusal wins over whatever the
 * read did, and the read's outcome is discarded. Tokens are remembered by their SHA-256 only.
 */
export class SpeculativeReads {
  private readonly capacity: number;
  private readonly ttlMs: number;
  private readonly clock: () => number;
  /** Key → expiry; a Map iterates in insertion order, so the first entry is the oldest. */
  private readonly authorized = new Map<string, number>();

  constructor(options: SpeculativeReadsOptions = {}) {
    this.capacity = options.capacity ?? DEFAULT_CAPACITY;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.clock = options.clock ?? Date.now;
    if (!Number.isInteger(this.capacity) || this.capacity < 1) {
      throw new RangeError('capacity must be a positive integer');
    }
  }

  async run<T>(request: SpeculativeRead<T>): Promise<T> {
    const key = request.token === undefined ? undefined : rememberedTokenKey(request.token);
    if (key === undefined || !this.isAuthorized(key)) {
      await this.authorize(key, request.authorize);
      return request.read();
    }
    const read = request.read();
    // Awaited below once authorized; when refused, its outcome is dropped, so it must not
    // surface as an unhandled rejection.
    read.catch(() => undefined);
    await this.authorize(key, request.authorize);
    return read;
  }

  /** How many tokens are remembered now (expired ones included until next looked up). */
  get size(): number {
    return this.authorized.size;
  }

  private async authorize(key: string | undefined, authorize: () => Promise<void>): Promise<void> {
    try {
      await authorize();
    } catch (refusal) {
      if (key !== undefined) this.authorized.delete(key);
      throw refusal;
    }
    if (key !== undefined) this.remember(key);
  }

  private isAuthorized(key: string): boolean {
    const expiry = this.authorized.get(key);
    if (expiry === undefined) return false;
    if (expiry > this.clock()) return true;
    this.authorized.delete(key);
    return false;
  }

  private remember(key: string): void {
    this.authorized.delete(key);
    this.authorized.set(key, this.clock() + this.ttlMs);
    if (this.authorized.size > this.capacity) {
      this.authorized.delete(this.authorized.keys().next().value as string);
    }
  }
}
