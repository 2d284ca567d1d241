import { type SqlExecutor } from '../sql/sql-client';
import { type OneTimeLinkPurpose } from './one-time-link';
import { isUserRole, type UserRecord, type UserRole, type UserView } from './user';
import {
  type NewUser,
  type StoredLinkToken,
  type StoredUser,
  type StoredUserIdentity,
  type UserStore,
} from './user-store';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string | null;
  created_at: Date;
  disabled_at: Date | null;
}

interface UserViewRow extends Omit<UserRow, 'password_hash'> {
  last_sign_in_at: Date | null;
  password_changed_at: Date | null;
  has_password: boolean;
  single_sign_on: boolean;
}

interface IdentityRow extends Omit<UserRow, 'password_hash'> {
  oidc_issuer: string | null;
  oidc_subject: string | null;
}

interface LinkTokenRow {
  user_id: string;
  purpose: OneTimeLinkPurpose;
  expires_at: Date;
  used_at: Date | null;
  superseded_at: Date | null;
}

export const USER_COLUMNS = 'id, email, name, role, created_at, disabled_at';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * The guard that keeps an active admin: the row changes only if it is not an active admin, or
 * another active admin remains. Callers also hold the admin-set lock (UserService), so two
 * concurrent changes cannot each count the other's admin.
 */
const KEEPS_AN_ACTIVE_ADMIN = `(role <> 'admin' OR disabled_at IS NOT NULL OR EXISTS (
  SELECT 1 FROM users other
  WHERE other.role = 'admin' AND other.disabled_at IS NULL AND other.id <> users.id))`;

export function userFromRow(row: Omit<UserRow, 'password_hash'>): UserRecord {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    // The CHECK constraint allows only known roles; anything else is read as the lesser one.
    role: isUserRole(row.role) ? row.role : 'member',
    createdAt: new Date(row.created_at),
    disabledAt: row.disabled_at === null ? null : new Date(row.disabled_at),
  };
}

const dateOrNull = (value: Date | null) => (value === null ? null : new Date(value));

function tokenFromRow(row: LinkTokenRow): StoredLinkToken {
  return {
    userId: row.user_id,
    purpose: row.purpose,
    expiresAt: new Date(row.expires_at),
    usedAt: dateOrNull(row.used_at),
    supersededAt: dateOrNull(row.superseded_at),
  };
}

/** UserStore over the `users`, `user_tokens` and `sessions` tables (migrations 0004, 0008). */
export class SqlUserStore implements UserStore {
  constructor(private readonly sql: SqlExecutor) {}

  async insert(user: NewUser): Promise<UserRecord | null> {
    const { rows } = await this.sql.query<UserRow>(
      `INSERT INTO users (email, name, role, password_hash, created_at, oidc_issuer, oidc_subject)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (email) DO NOTHING
       RETURNING ${USER_COLUMNS}`,
      [
        user.email,
        user.name,
        user.role,
        user.passwordHash,
        user.createdAt,
        user.oidcIdentity?.issuer ?? null,
        user.oidcIdentity?.subject ?? null,
      ],
    );
    return rows.length === 0 ? null : userFromRow(rows[0]);
  }

  async insertIfNoUsers(user: NewUser): Promise<UserRecord | null> {
    const { rows } = await this.sql.query<UserRow>(
      `INSERT INTO users (email, name, role, password_hash, created_at)
       SELECT $1, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM users)
       ON CONFLICT (email) DO NOTHING
       RETURNING ${USER_COLUMNS}`,
      [user.email, user.name, user.role, user.passwordHash, user.createdAt],
    );
    return rows.length === 0 ? null : userFromRow(rows[0]);
  }

  async findByEmail(email: string): Promise<StoredUser | null> {
    const { rows } = await this.sql.query<UserRow>(
      `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE email = $1`,
      [email],
    );
    return rows.length === 0
      ? null
      : { ...userFromRow(rows[0]), passwordHash: rows[0].password_hash };
  }

  async findById(id: string): Promise<UserRecord | null> {
    if (!UUID.test(id)) return null;
    const { rows } = await this.sql.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`,
      [id],
    );
    return rows.length === 0 ? null : userFromRow(rows[0]);
  }

  async findByOidcIdentity(issuer: string, subject: string): Promise<StoredUserIdentity | null> {
    const { rows } = await this.sql.query<IdentityRow>(
      `SELECT ${USER_COLUMNS}, oidc_issuer, oidc_subject FROM users
       WHERE oidc_issuer = $1 AND oidc_subject = $2`,
      [issuer, subject],
    );
    return rows.length === 0
      ? null
      : {
          ...userFromRow(rows[0]),
          oidcIssuer: rows[0].oidc_issuer,
          oidcSubject: rows[0].oidc_subject,
        };
  }

  async list(): Promise<UserView[]> {
    const { rows } = await this.sql.query<UserViewRow>(
      `SELECT ${USER_COLUMNS}, last_sign_in_at, password_changed_at,
              password_hash IS NOT NULL AS has_password,
              oidc_subject IS NOT NULL AS single_sign_on
       FROM users ORDER BY email`,
    );
    return rows.map((row) => {
      const user = userFromRow(row);
      return {
        ...user,
        status:
          user.disabledAt !== null
            ? 'disabled'
            : row.has_password || row.single_sign_on
              ? 'active'
              : 'invited',
        lastSignInAt: dateOrNull(row.last_sign_in_at),
        passwordChangedAt: dateOrNull(row.password_changed_at),
        hasPassword: row.has_password,
        singleSignOn: row.single_sign_on,
      };
    });
  }

  /** The addresses of the admins who can act (not disabled): who hears of a disabled provider. */
  async activeAdminEmails(): Promise<string[]> {
    const { rows } = await this.sql.query<{ email: string }>(
      `SELECT email FROM users WHERE role = 'admin' AND disabled_at IS NULL ORDER BY email`,
    );
    return rows.map((row) => row.email);
  }

  async lockById(id: string): Promise<UserRecord | null> {
    if (!UUID.test(id)) return null;
    const { rows } = await this.sql.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows.length === 0 ? null : userFromRow(rows[0]);
  }

  async countOtherActiveAdmins(id: string): Promise<number> {
    const { rows } = await this.sql.query<{ count: string }>(
      `SELECT count(*) AS count FROM users
       WHERE role = 'admin' AND disabled_at IS NULL AND id <> $1`,
      [id],
    );
    return Number(rows[0].count);
  }

  async setRole(id: string, role: UserRole): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      `UPDATE users SET role = $2
       WHERE id = $1 AND ($2 = 'admin' OR ${KEEPS_AN_ACTIVE_ADMIN})`,
      [id, role],
    );
    return rowCount > 0;
  }

  async disable(id: string, at: Date): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      `UPDATE users SET disabled_at = COALESCE(disabled_at, $2)
       WHERE id = $1 AND ${KEEPS_AN_ACTIVE_ADMIN}`,
      [id, at],
    );
    return rowCount > 0;
  }

  async enable(id: string): Promise<boolean> {
    const { rowCount } = await this.sql.query('UPDATE users SET disabled_at = NULL WHERE id = $1', [
      id,
    ]);
    return rowCount > 0;
  }

  async delete(id: string): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      `DELETE FROM users WHERE id = $1 AND ${KEEPS_AN_ACTIVE_ADMIN}`,
      [id],
    );
    return rowCount > 0;
  }

  async setPassword(id: string, passwordHash: string, at: Date): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      `UPDATE users SET password_hash = $2, password_changed_at = $3
       WHERE id = $1 AND disabled_at IS NULL`,
      [id, passwordHash, at],
    );
    return rowCount > 0;
  }

  async recordSignIn(id: string, at: Date): Promise<void> {
    await this.sql.query('UPDATE users SET last_sign_in_at = $2 WHERE id = $1', [id, at]);
  }

  async linkOidcIdentity(id: string, issuer: string, subject: string): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      `UPDATE users SET oidc_issuer = $2, oidc_subject = $3
       WHERE id = $1 AND oidc_issuer IS NULL`,
      [id, issuer, subject],
    );
    return rowCount > 0;
  }

  async deleteSessions(userId: string): Promise<number> {
    const { rowCount } = await this.sql.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
    return rowCount;
  }

  async insertLinkToken(token: {
    hash: Buffer;
    userId: string;
    purpose: OneTimeLinkPurpose;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.sql.query(
      `UPDATE user_tokens SET superseded_at = $3
       WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL AND superseded_at IS NULL`,
      [token.userId, token.purpose, token.createdAt],
    );
    await this.sql.query(
      `INSERT INTO user_tokens (token_hash, user_id, purpose, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [token.hash, token.userId, token.purpose, token.createdAt, token.expiresAt],
    );
  }

  async consumeLinkToken(hash: Buffer, at: Date): Promise<StoredLinkToken | null> {
    const { rows } = await this.sql.query<LinkTokenRow>(
      `UPDATE user_tokens SET used_at = $2
       WHERE token_hash = $1 AND used_at IS NULL AND superseded_at IS NULL AND expires_at > $2
       RETURNING user_id, purpose, expires_at, used_at, superseded_at`,
      [hash, at],
    );
    return rows.length === 0 ? null : tokenFromRow(rows[0]);
  }

  async findLinkToken(hash: Buffer): Promise<StoredLinkToken | null> {
    const { rows } = await this.sql.query<LinkTokenRow>(
      `SELECT user_id, purpose, expires_at, used_at, superseded_at FROM user_tokens
       WHERE token_hash = $1`,
      [hash],
    );
    return rows.length === 0 ? null : tokenFromRow(rows[0]);
  }
}
