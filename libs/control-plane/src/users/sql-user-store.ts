import { type SqlExecutor } from '../sql/sql-client';
import { isUserRole, type UserRecord } from './user';
import { type NewUser, type StoredUser, type UserStore } from './user-store';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string;
  created_at: Date;
  disabled_at: Date | null;
}

export const USER_COLUMNS = 'id, email, name, role, created_at, disabled_at';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/** UserStore over the `users` table (migration 0004). */
export class SqlUserStore implements UserStore {
  constructor(private readonly sql: SqlExecutor) {}

  async insert(user: NewUser): Promise<UserRecord | null> {
    const { rows } = await this.sql.query<UserRow>(
      `INSERT INTO users (email, name, role, password_hash, created_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email) DO NOTHING
       RETURNING ${USER_COLUMNS}`,
      [user.email, user.name, user.role, user.passwordHash, user.createdAt],
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
}
