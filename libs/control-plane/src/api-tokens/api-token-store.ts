import { type ApiTokenRecord } from './api-token';

export interface NewApiToken {
  readonly name: string;
  readonly permissions: ApiTokenRecord['permissions'];
  readonly tokenHash: Buffer;
  readonly lastFour: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly createdBy: string | null;
}

export interface StoredApiToken extends ApiTokenRecord {
  readonly tokenHash: Buffer;
}

/** Where API tokens live. The real adapter is SqlApiTokenStore. */
export interface ApiTokenStore {
  insert(token: NewApiToken): Promise<ApiTokenRecord>;
  /** Tokens not deleted, newest first. */
  listLive(): Promise<ApiTokenRecord[]>;
  /** The live (not deleted) token with this hash, if any. */
  findLiveByHash(tokenHash: Buffer): Promise<StoredApiToken | null>;
  /** The same for several hashes in one round trip: one answer per hash, in order. */
  findLiveByHashes(tokenHashes: readonly Buffer[]): Promise<(StoredApiToken | null)[]>;
  /** Marks a live token deleted; false when there was none with this id. */
  markDeleted(id: string, at: Date): Promise<boolean>;
  /**
   * Sets Last Used to `at` unless it is already within a minute of it; returns whether a row
   * changed. The condition is in the UPDATE, so concurrent requests write at most once.
   */
  touchLastUsed(id: string, at: Date): Promise<boolean>;
}
