import type { ApiTokenRecord } from './api-token';
import type { ApiTokenStore, NewApiToken, StoredApiToken } from './api-token-store';

interface WaitingLookup {
  readonly tokenHash: Buffer;
  readonly resolve: (token: StoredApiToken | null) => void;
  readonly reject: (error: unknown) => void;
}

/** More lookups than this wait for the next round trip. */
const MAX_LOOKUPS_PER_ROUND_TRIP = 256;

/**
 * Looks up the tokens of concurrent requests in one round trip instead of one each: every
 * request of the API and ingest checks its token in the database (so a deleted token is refused
 * on the very next request), and under load that query, not the search, was the API's largest
 * cost after the search itself. A lookup joins the next round trip, which starts once the
 * previous one has answered: it is always read after the request asked, so a deletion
 * committed before a request arrived is always seen. A hash asked by several requests of the
 * round trip (a script's requests in parallel, all with its one token) is looked up once and its
 * answer given to each: the database reads, and the API parses, one row per token rather than
 * one per request. Everything else goes straight through.
 */
export class CoalescingApiTokenStore implements ApiTokenStore {
  private waiting: WaitingLookup[] = [];
  private lookingUp = false;
  private scheduled = false;

  constructor(private readonly store: ApiTokenStore) {}

  insert(token: NewApiToken): Promise<ApiTokenRecord> {
    return this.store.insert(token);
  }

  listLive(): Promise<ApiTokenRecord[]> {
    return this.store.listLive();
  }

  markDeleted(id: string, at: Date): Promise<boolean> {
    return this.store.markDeleted(id, at);
  }

  touchLastUsed(id: string, at: Date): Promise<boolean> {
    return this.store.touchLastUsed(id, at);
  }

  findLiveByHashes(tokenHashes: readonly Buffer[]): Promise<(StoredApiToken | null)[]> {
    return this.store.findLiveByHashes(tokenHashes);
  }

  findLiveByHash(tokenHash: Buffer): Promise<StoredApiToken | null> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ tokenHash, resolve, reject });
      if (!this.lookingUp && !this.scheduled) {
        // Requests whose bytes arrived together are parsed in the same turn of the event loop:
        // let them all join before the round trip starts.
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.lookUp();
        });
      }
    });
  }

  private lookUp(): void {
    if (this.lookingUp || this.waiting.length === 0) return;
    const batch = this.waiting.slice(0, MAX_LOOKUPS_PER_ROUND_TRIP);
    this.waiting = this.waiting.slice(batch.length);
    this.lookingUp = true;
    const hashes: Buffer[] = [];
    const positionOf = new Map<string, number>();
    const positions = batch.map(({ tokenHash }) => {
      const key = tokenHash.toString('latin1');
      let position = positionOf.get(key);
      if (position === undefined) {
        position = hashes.push(tokenHash) - 1;
        positionOf.set(key, position);
      }
      return position;
    });
    void this.store
      .findLiveByHashes(hashes)
      .then(
        (found) => batch.forEach((lookup, i) => lookup.resolve(found[positions[i]])),
        (error: unknown) => batch.forEach((lookup) => lookup.reject(error)),
      )
      .finally(() => {
        this.lookingUp = false;
        this.lookUp();
      });
  }
}
