import { type SqlExecutor } from '../sql/sql-client';
import { userFromRow, type UserRow } from '../users/sql-user-store';
import { type NewSession, type SessionStore, type StoredSession } from './session-store';

interface SessionRow extends Omit<UserRow, 'id' | 'password_hash'> {
  user_id: string;
  csrf_token: string;
  session_created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

/** SessionStore over the `sessions` table (migration 0004). */
export class SqlSessionStore implements SessionStore {
  constructor(private readonly sql: SqlExecutor) {}

  async insert(session: NewSession): Promise<void> {
    await this.sql.query(
      `INSERT INTO sessions (id, user_id, csrf_token, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $4, $5)`,
      [session.id, session.userId, session.csrfToken, session.createdAt, session.expiresAt],
    );
  }

  async findLive(id: Buffer, now: Date, idleSince: Date): Promise<StoredSession | null> {
    const { rows } = await this.sql.query<SessionRow>(
      `SELECT s.user_id, s.csrf_token, s.created_at AS session_created_at, s.last_seen_at,
              s.expires_at, u.email, u.name, u.role, u.created_at, u.disabled_at
       FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.id = $1 AND s.expires_at > $2 AND s.last_seen_at > $3 AND u.disabled_at IS NULL`,
      [id, now, idleSince],
    );
    if (rows.length === 0) return null;
    const row = rows[0];
    return {
      csrfToken: row.csrf_token,
      createdAt: new Date(row.session_created_at),
      lastSeenAt: new Date(row.last_seen_at),
      expiresAt: new Date(row.expires_at),
      user: userFromRow({ ...row, id: row.user_id }),
    };
  }

  async touch(id: Buffer, at: Date): Promise<void> {
    await this.sql.query(
      `UPDATE sessions SET last_seen_at = $2
       WHERE id = $1 AND last_seen_at < $2::timestamptz - interval '1 minute'`,
      [id, at],
    );
  }

  async delete(id: Buffer): Promise<void> {
    await this.sql.query('DELETE FROM sessions WHERE id = $1', [id]);
  }

  async deleteDead(now: Date, idleSince: Date): Promise<number> {
    const { rowCount } = await this.sql.query(
      'DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2',
      [now, idleSince],
    );
    return rowCount;
  }
}
