import { hash, timingSafeEqual } from 'node:crypto';
import type { Pool } from 'pg';
import { bearerTokenOf } from '@vigil/auth';

/** Joined in one round trip, as the API's lookups are (CoalescingApiTokenStore). */
const LOOKUP = {
  name: 'bench_least_token_check',
  text: `SELECT token_hash, expires_at > now() AS live FROM api_tokens
         WHERE token_hash = ANY($1::bytea[]) AND deleted_at IS NULL`,
};

interface WaitingCheck {
  readonly tokenHash: Buffer;
  readonly resolve: (passed: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The least a server must do per request to honour DESIGN.md §6 ("a deleted token is refused on
 * the next request"): SHA-256 of the presented value, a lookup of the live token by that hash in
 * PostgreSQL (concurrent requests' lookups joined in one round trip, the next one starting when
 * the last has answered), a constant-time comparison and the expiry. Nothing else the API does
 * with a token: no checksum, no permissions, no Last Used, no decoy row, no rate limit.
 * Resolves whether the token passed.
 */
export function leastTokenCheck(
  pool: Pool,
): (authorization: string | undefined) => Promise<boolean> {
  let waiting: WaitingCheck[] = [];
  let inFlight = false;
  let scheduled = false;
  const lookUp = () => {
    if (inFlight || waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    inFlight = true;
    pool
      .query<{ token_hash: Buffer; live: boolean }>({
        ...LOOKUP,
        values: [batch.map((check) => check.tokenHash)],
      })
      .then(
        ({ rows }) => {
          for (const check of batch) {
            const row = rows.find(
              (r) =>
                r.token_hash.length === check.tokenHash.length &&
                timingSafeEqual(r.token_hash, check.tokenHash),
            );
            check.resolve(row?.live === true);
          }
        },
        (error: unknown) => batch.forEach((check) => check.reject(error)),
      )
      .finally(() => {
        inFlight = false;
        lookUp();
      });
  };
  return (authorization) => {
    const value = bearerTokenOf(authorization);
    if (value === undefined) return Promise.resolve(false);
    return new Promise((resolve, reject) => {
      waiting.push({ tokenHash: hash('sha256', value, 'buffer'), resolve, reject });
      if (!inFlight && !scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          lookUp();
        });
      }
    });
  };
}
