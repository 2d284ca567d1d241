import { rememberedTokenKey } from './remembered-token-key';

export interface RecentTokenIdsOptions {
  /** How many tokens are remembered; the one seen longest ago is forgotten first. */
  readonly capacity?: number;
  /** How long a token's id is remembered after its last successful request. */
  readonly ttlMs?: number;
  readonly clock?: () => number;
}

/**
 * The id of each token that passed authentication recently, by the token's SHA-256 (never the
 * value), so work keyed by the id can start before the token lookup of the next request ends.
 * It is a hint only: whatever uses it must still check the authenticated principal.
 */
export class RecentTokenIds {
  private readonly capacity: number;
  private readonly ttlMs: number;
  private readonly clock: () => number;
  /** Key → id and expiry; a Map iterates in insertion order, so the first entry is the oldest. */
  private readonly ids = new Map<string, { id: string; expiry: number }>();

  constructor(options: RecentTokenIdsOptions = {}) {
    this.capacity = options.capacity ?? 4_096;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.clock = options.clock ?? Date.now;
    if (!Number.isInteger(this.capacity) || this.capacity < 1) {
      throw new RangeError('capacity must be a positive integer');
    }
  }

  get(token: string): string | undefined {
    const key = rememberedTokenKey(token);
    const entry = this.ids.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiry > this.clock()) return entry.id;
    this.ids.delete(key);
    return undefined;
  }

  remember(token: string, id: string): void {
    const key = rememberedTokenKey(token);
    this.ids.delete(key);
    this.ids.set(key, { id, expiry: this.clock() + this.ttlMs });
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.keys().next().value as string);
  }

  get size(): number {
    return this.ids.size;
  }
}
