import { createHash, randomBytes } from 'node:crypto';
import { silentLogger, type ControlPlaneLogger } from '../sql/sql-client';
import { type UserRecord } from '../users/user';
import {
  SESSION_ABSOLUTE_TIMEOUT_MS,
  SESSION_IDLE_TIMEOUT_MS,
  type ActiveSession,
  type StartedSession,
} from './session';
import { type SessionStore } from './session-store';

export interface SessionServiceOptions {
  readonly clock?: () => Date;
  readonly logger?: ControlPlaneLogger;
  readonly idleTimeoutMs?: number;
  readonly absoluteTimeoutMs?: number;
}

const LAST_SEEN_RESOLUTION_MS = 60_000;
/** 32 random bytes in base64url. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

function sessionIdOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * Web sessions: a random cookie value whose SHA-256 is the row id, so a leaked database does not
 * yield usable cookies. Every sign-in opens a new session (no fixation); sign-out deletes it.
 */
export class SessionService {
  private readonly clock: () => Date;
  private readonly logger: ControlPlaneLogger;
  private readonly idleTimeoutMs: number;
  private readonly absoluteTimeoutMs: number;

  constructor(
    private readonly store: SessionStore,
    options: SessionServiceOptions = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.logger = options.logger ?? silentLogger;
    this.idleTimeoutMs = options.idleTimeoutMs ?? SESSION_IDLE_TIMEOUT_MS;
    this.absoluteTimeoutMs = options.absoluteTimeoutMs ?? SESSION_ABSOLUTE_TIMEOUT_MS;
  }

  async startSession(user: UserRecord): Promise<StartedSession> {
    const now = this.clock();
    await this.store.deleteDead(now, this.idleSince(now));
    const token = newSecret();
    const session: ActiveSession = {
      user,
      csrfToken: newSecret(),
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.absoluteTimeoutMs),
    };
    await this.store.insert({
      id: sessionIdOf(token),
      userId: user.id,
      csrfToken: session.csrfToken,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
    });
    this.logger.info({ userId: user.id }, 'signed in');
    return { token, session };
  }

  /** The live session of a cookie value, or null (unknown, ended, idle, expired, user disabled). */
  async resolve(token: string | undefined): Promise<ActiveSession | null> {
    if (token === undefined || !TOKEN_FORMAT.test(token)) return null;
    const now = this.clock();
    const id = sessionIdOf(token);
    const stored = await this.store.findLive(id, now, this.idleSince(now));
    if (stored === null) return null;
    if (now.getTime() - stored.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
      await this.store.touch(id, now);
    }
    return {
      user: stored.user,
      csrfToken: stored.csrfToken,
      createdAt: stored.createdAt,
      expiresAt: stored.expiresAt,
    };
  }

  async endSession(token: string | undefined): Promise<void> {
    if (token === undefined || !TOKEN_FORMAT.test(token)) return;
    await this.store.delete(sessionIdOf(token));
  }

  private idleSince(now: Date): Date {
    return new Date(now.getTime() - this.idleTimeoutMs);
  }
}
