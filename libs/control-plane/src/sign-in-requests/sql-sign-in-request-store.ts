import { type SqlExecutor } from '../sql/sql-client';
import { type SignInRequest, type SignInRequestStore } from './sign-in-request';

interface SignInRequestRow {
  state_hash: Buffer | Uint8Array;
  code_verifier: string;
  nonce: string;
  next_path: string;
  created_at: Date;
  expires_at: Date;
}

/** SignInRequestStore over the `sign_in_requests` table (migration 0010). */
export class SqlSignInRequestStore implements SignInRequestStore {
  constructor(private readonly sql: SqlExecutor) {}

  async save(request: SignInRequest): Promise<void> {
    await this.sql.query('DELETE FROM sign_in_requests WHERE expires_at < $1', [request.createdAt]);
    await this.sql.query(
      `INSERT INTO sign_in_requests (state_hash, code_verifier, nonce, next_path, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        request.stateHash,
        request.codeVerifier,
        request.nonce,
        request.nextPath,
        request.createdAt,
        request.expiresAt,
      ],
    );
  }

  async take(stateHash: Buffer): Promise<SignInRequest | null> {
    // DELETE … RETURNING: of two callbacks with the same state, only one gets the row.
    const { rows } = await this.sql.query<SignInRequestRow>(
      `DELETE FROM sign_in_requests WHERE state_hash = $1
       RETURNING state_hash, code_verifier, nonce, next_path, created_at, expires_at`,
      [stateHash],
    );
    if (rows.length === 0) return null;
    const row = rows[0];
    return {
      stateHash: Buffer.from(row.state_hash),
      codeVerifier: row.code_verifier,
      nonce: row.nonce,
      nextPath: row.next_path,
      createdAt: new Date(row.created_at),
      expiresAt: new Date(row.expires_at),
    };
  }
}
