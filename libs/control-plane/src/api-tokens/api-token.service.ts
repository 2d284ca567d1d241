import { timingSafeEqual } from 'node:crypto';
import { silentLogger, type ControlPlaneLogger } from '../sql/sql-client';
import { tokenStateAt, type ApiTokenView, type AuthenticationResult } from './api-token';
import { type ApiTokenStore } from './api-token-store';
import { validateCreateToken, type CreateTokenCommand } from './create-token-command';
import { TokenError } from './token-error';
import { generateTokenValue, hashTokenValue, parseTokenValue } from './token-value';

export interface CreatedToken {
  readonly token: ApiTokenView;
  /** The secret. Shown once; only its hash is stored. */
  readonly value: string;
}

export interface ApiTokenServiceOptions {
  readonly clock?: () => Date;
  readonly logger?: ControlPlaneLogger;
  readonly generateValue?: () => string;
}

const LAST_USED_RESOLUTION_MS = 60_000;
const NO_HASH = Buffer.alloc(32);
const INVALID: AuthenticationResult = { ok: false, code: 'invalid_token' };
const EXPIRED: AuthenticationResult = { ok: false, code: 'token_expired' };

/**
 * The API token use cases: create, list, delete, authenticate. Token management is an admin
 * action; callers (web application, CLI) check that before calling.
 */
export class ApiTokenService {
  private readonly clock: () => Date;
  private readonly logger: ControlPlaneLogger;
  private readonly generateValue: () => string;
  private readonly pendingTouches = new Set<Promise<void>>();

  constructor(
    private readonly store: ApiTokenStore,
    options: ApiTokenServiceOptions = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.logger = options.logger ?? silentLogger;
    this.generateValue = options.generateValue ?? (() => generateTokenValue());
  }

  /** Validates the request, stores the hash and returns the value, which is never shown again. */
  async createToken(command: CreateTokenCommand): Promise<CreatedToken> {
    const now = this.clock();
    const request = validateCreateToken(command, now);
    const value = this.generateValue();
    const record = await this.store.insert({
      ...request,
      tokenHash: hashTokenValue(value),
      lastFour: value.slice(-4),
      createdAt: now,
    });
    this.logger.info(
      { tokenId: record.id, name: record.name, createdBy: record.createdBy },
      'API token created',
    );
    return { token: { ...record, state: tokenStateAt(record, now) }, value };
  }

  /** Tokens not deleted, newest first, each with its state at `now`. */
  async listTokens(now: Date = this.clock()): Promise<ApiTokenView[]> {
    const records = await this.store.listLive();
    return records.map((record) => ({ ...record, state: tokenStateAt(record, now) }));
  }

  /** Deletes a token; the next request made with it is rejected. Irreversible. */
  async deleteToken(id: string): Promise<void> {
    const deleted = await this.store.markDeleted(id, this.clock());
    if (!deleted) {
      throw new TokenError('not_found', `No API token with id ${id}`, [
        { field: 'id', message: 'no such token' },
      ]);
    }
    this.logger.info({ tokenId: id }, 'API token deleted');
  }

  /**
   * Checks a presented token value. A malformed value or a bad checksum fails before any I/O;
   * that is the only shortcut. Past it, every value costs one SHA-256, one indexed lookup and a
   * constant-time comparison, found or not, so response times do not reveal whether a hash
   * exists. Expired tokens fail with `token_expired`, unknown and deleted ones with
   * `invalid_token`. Errors of the store (SqlUnavailableError when the database is down)
   * propagate: the caller fails closed.
   */
  async authenticate(value: string, now: Date = this.clock()): Promise<AuthenticationResult> {
    const parsed = parseTokenValue(value);
    if (!parsed.ok) return INVALID;

    const presented = hashTokenValue(parsed.value);
    const stored = await this.store.findLiveByHash(presented);
    const candidate =
      stored !== null && stored.tokenHash.length === presented.length ? stored.tokenHash : NO_HASH;
    const matches = timingSafeEqual(candidate, presented);
    if (stored === null || !matches) return INVALID;
    if (tokenStateAt(stored, now) === 'expired') return EXPIRED;

    this.recordUse(stored.id, stored.lastUsedAt, now);
    return {
      ok: true,
      principal: { tokenId: stored.id, name: stored.name, permissions: stored.permissions },
    };
  }

  /** Resolves when every Last Used update started so far has finished (tests, shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.pendingTouches]);
  }

  /**
   * Last Used is written at most once a minute per token: skipped here when the row just read is
   * recent, and guarded again by the UPDATE's condition against concurrent requests. The request
   * does not wait for it; a failure is logged, never surfaced.
   */
  private recordUse(id: string, lastUsedAt: Date | null, now: Date): void {
    if (lastUsedAt !== null && now.getTime() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) {
      return;
    }
    const touch = this.store
      .touchLastUsed(id, now)
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.warn({ err: error, tokenId: id }, 'could not record API token use');
      })
      .finally(() => this.pendingTouches.delete(touch));
    this.pendingTouches.add(touch);
  }
}
