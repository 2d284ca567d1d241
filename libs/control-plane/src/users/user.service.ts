import { type AuditContext, type NewAuditEvent, userActor } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import {
  silentLogger,
  type ControlPlaneLogger,
  type SqlClient,
  type SqlExecutor,
} from '../sql/sql-client';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USER_NAME_MAX_LENGTH,
  normalizeEmail,
  validateCreateUser,
  type CreateUserCommand,
} from './create-user-command';
import {
  INVITATION_LIFETIME_MS,
  PASSWORD_RESET_LIFETIME_MS,
  describePurpose,
  isLinkTokenFormat,
  linkTokenHash,
  newLinkToken,
  type OneTimeLink,
  type OneTimeLinkPurpose,
} from './one-time-link';
import { Argon2PasswordHasher, type PasswordHasher } from './password-hasher';
import { SqlUserStore } from './sql-user-store';
import {
  isUserRole,
  roleLabel,
  type UserRecord,
  type UserRole,
  type UserView,
  type VerifiedIdentity,
} from './user';
import { UserError } from './user-error';
import { type StoredLinkToken, type UserStore } from './user-store';

export interface UserServiceOptions {
  readonly clock?: () => Date;
  readonly hasher?: PasswordHasher;
  readonly logger?: ControlPlaneLogger;
  readonly invitationLifetimeMs?: number;
  readonly passwordResetLifetimeMs?: number;
}

/** An invitation: the user, created without a password, and the link that lets them set one. */
export interface InvitedUser {
  readonly user: UserRecord;
  readonly link: OneTimeLink;
}

/** What the page behind a one-time link shows before the password is chosen. */
export interface OneTimeLinkDetails {
  readonly purpose: OneTimeLinkPurpose;
  readonly email: string;
  readonly name: string;
  readonly expiresAt: Date;
}

/** The outcome of a password sign-in attempt. */
export type PasswordCheck =
  | { readonly accepted: true; readonly user: UserRecord }
  | {
      readonly accepted: false;
      readonly reason: 'bad_credentials' | 'disabled';
      readonly user: UserRecord | null;
    };

/** Whether and how a single sign-on may add a user it does not know yet. */
export interface IdentityProvisioning {
  /** The role of a user created at their first sign-on; null: only known users sign in. */
  readonly role: UserRole | null;
}

/**
 * Serializes changes to who is an active admin (role changes, disabling, deleting), so two
 * concurrent changes cannot each count on the other's admin and leave none. Transaction-level:
 * released at commit or rollback.
 */
const ADMIN_SET_LOCK_KEY = '7236485513041850411';

/**
 * The user use cases: create and invite (admins, the operator CLI, first start), list, change a
 * role, disable, enable, delete, one-time links to set a password, password and single sign-on
 * sign-in. A change that would leave no active admin is refused (`last_admin`); disabling,
 * deleting or changing the role of a user, or resetting their password, ends their sessions at
 * once. Every change is recorded in the audit log in the transaction that makes it.
 */
export class UserService {
  private readonly clock: () => Date;
  private readonly hasher: PasswordHasher;
  private readonly logger: ControlPlaneLogger;
  private readonly invitationLifetimeMs: number;
  private readonly passwordResetLifetimeMs: number;
  private readonly store: UserStore;
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly sql: SqlClient,
    options: UserServiceOptions = {},
  ) {
    this.store = new SqlUserStore(sql);
    this.clock = options.clock ?? (() => new Date());
    this.hasher = options.hasher ?? new Argon2PasswordHasher();
    this.logger = options.logger ?? silentLogger;
    this.invitationLifetimeMs = options.invitationLifetimeMs ?? INVITATION_LIFETIME_MS;
    this.passwordResetLifetimeMs = options.passwordResetLifetimeMs ?? PASSWORD_RESET_LIFETIME_MS;
  }

  /** Creates a user; refuses invalid input and a taken email with a UserError. */
  async createUser(command: CreateUserCommand, audit?: AuditContext): Promise<UserRecord> {
    const request = validateCreateUser(command);
    const passwordHash = await this.hasher.hash(request.password);
    const created = await this.inTransaction(async (store, events) => {
      const user = await store.insert({
        email: request.email,
        name: request.name,
        role: request.role,
        passwordHash,
        createdAt: this.clock(),
      });
      if (user === null) throw emailTaken(request.email);
      if (audit) {
        await events.push(audit, 'user.created', user, { email: user.email, role: user.role });
      }
      return user;
    });
    this.logger.info({ userId: created.id, role: created.role }, 'user created');
    return created;
  }

  /**
   * Creates a user without a password and an invitation link (valid 7 days) with which they
   * choose one. The link is returned once, to be shown to the admin or emailed.
   */
  async inviteUser(
    command: Omit<CreateUserCommand, 'password'>,
    audit: AuditContext,
  ): Promise<InvitedUser> {
    const request = validateCreateUser({ ...command, password: 'x'.repeat(PASSWORD_MIN_LENGTH) });
    const result = await this.inTransaction(async (store, events) => {
      const now = this.clock();
      const user = await store.insert({
        email: request.email,
        name: request.name,
        role: request.role,
        passwordHash: null,
        createdAt: now,
      });
      if (user === null) throw emailTaken(request.email);
      const link = await this.issueLink(store, user, 'invitation', now);
      await events.push(audit, 'user.invited', user, {
        email: user.email,
        role: user.role,
        expiresAt: link.expiresAt.toISOString(),
      });
      return { user, link };
    });
    this.logger.info({ userId: result.user.id, role: result.user.role }, 'user invited');
    return result;
  }

  /**
   * Creates the first workspace admin when no user exists yet (first start); returns null when
   * there already are users, so it is safe to call on every start.
   */
  async ensureInitialAdmin(command: Omit<CreateUserCommand, 'role'>): Promise<UserRecord | null> {
    const request = validateCreateUser({ ...command, role: 'admin' });
    const created = await this.store.insertIfNoUsers({
      email: request.email,
      name: request.name,
      role: 'admin',
      passwordHash: await this.hasher.hash(request.password),
      createdAt: this.clock(),
    });
    if (created !== null) {
      this.logger.info({ userId: created.id }, 'initial workspace admin created');
    }
    return created;
  }

  /**
   * The enabled user with this email and password, or null. An unknown email, or a user without
   * a password, costs the same hash verification as a wrong password, so timing does not reveal
   * which emails exist.
   */
  async verifyCredentials(email: string, password: string): Promise<UserRecord | null> {
    const check = await this.checkPassword(email, password);
    return check.accepted ? check.user : null;
  }

  /**
   * verifyCredentials, saying why a password was refused: `disabled` only when the password was
   * right (so it tells nothing to whoever does not know it), and the user refused, when known,
   * for the audit log. Callers show every refusal with the same words.
   */
  async checkPassword(email: string, password: string): Promise<PasswordCheck> {
    if (typeof password !== 'string' || password.length > PASSWORD_MAX_LENGTH) {
      return { accepted: false, reason: 'bad_credentials', user: null };
    }
    const user = await this.store.findByEmail(normalizeEmail(email));
    if (user === null || user.passwordHash === null) {
      await this.hasher.verify(await this.dummyPasswordHash(), password);
      return { accepted: false, reason: 'bad_credentials', user: user && recordOf(user) };
    }
    const matches = await this.hasher.verify(user.passwordHash, password);
    if (!matches) return { accepted: false, reason: 'bad_credentials', user: recordOf(user) };
    if (user.disabledAt !== null) {
      return { accepted: false, reason: 'disabled', user: recordOf(user) };
    }
    await this.store.recordSignIn(user.id, this.clock());
    return { accepted: true, user: recordOf(user) };
  }

  async findById(id: string): Promise<UserRecord | null> {
    return this.store.findById(id);
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const user = await this.store.findByEmail(normalizeEmail(email));
    if (user === null) return null;
    const { passwordHash: _hash, ...record } = user;
    return record;
  }

  /** Every user, by email, with their status and last sign-in. */
  async list(): Promise<UserView[]> {
    return this.store.list();
  }

  /** Changes a user's role; refuses to demote the last active admin. Ends their sessions. */
  async changeRole(id: string, role: string, audit: AuditContext): Promise<UserRecord> {
    if (!isUserRole(role)) {
      throw new UserError('invalid_request', 'The role must be admin or member', [
        { field: 'role', message: 'must be admin or member' },
      ]);
    }
    return this.changeAdminSet(id, async (store, user, events) => {
      if (user.role === role) return user;
      if (!(await store.setRole(id, role))) throw lastAdmin(user, 'demote');
      await store.deleteSessions(id);
      await events.push(audit, 'user.role_changed', user, {
        email: user.email,
        before: user.role,
        after: role,
      });
      this.logger.info({ userId: id, role }, 'user role changed');
      return { ...user, role };
    });
  }

  /** Disables a user: their sessions end and they cannot sign in. Refused for the last active admin. */
  async disable(id: string, audit: AuditContext): Promise<UserRecord> {
    return this.changeAdminSet(id, async (store, user, events) => {
      if (user.disabledAt !== null) return user;
      const at = this.clock();
      if (!(await store.disable(id, at))) throw lastAdmin(user, 'disable');
      await store.deleteSessions(id);
      await events.push(audit, 'user.disabled', user, { email: user.email });
      this.logger.info({ userId: id }, 'user disabled');
      return { ...user, disabledAt: at };
    });
  }

  async enable(id: string, audit: AuditContext): Promise<UserRecord> {
    return this.changeAdminSet(id, async (store, user, events) => {
      if (user.disabledAt === null) return user;
      await store.enable(id);
      await events.push(audit, 'user.enabled', user, { email: user.email });
      this.logger.info({ userId: id }, 'user enabled');
      return { ...user, disabledAt: null };
    });
  }

  /** Deletes a user and their sessions and links. Refused for the last active admin. */
  async delete(id: string, audit: AuditContext): Promise<UserRecord> {
    return this.changeAdminSet(id, async (store, user, events) => {
      if (!(await store.delete(id))) throw lastAdmin(user, 'delete');
      await events.push(audit, 'user.deleted', user, {
        email: user.email,
        name: user.name,
        role: user.role,
      });
      this.logger.info({ userId: id }, 'user deleted');
      return user;
    });
  }

  /**
   * A password reset link for an enabled user (valid 24 hours), to be shown once to the admin
   * or emailed. It supersedes the user's earlier reset links.
   */
  async issuePasswordReset(id: string, audit: AuditContext): Promise<OneTimeLink> {
    return this.inTransaction(async (store, events) => {
      const user = await store.lockById(id);
      if (user === null) throw notFound(id);
      if (user.disabledAt !== null) {
        throw new UserError(
          'user_disabled',
          `${user.email} is disabled: enable the user before resetting their password`,
        );
      }
      const link = await this.issueLink(store, user, 'password_reset', this.clock());
      await events.push(audit, 'user.password_reset_issued', user, {
        email: user.email,
        expiresAt: link.expiresAt.toISOString(),
      });
      return link;
    });
  }

  /** Who a one-time link is for, without using it (the page that asks for the password). */
  async describeLink(token: string): Promise<OneTimeLinkDetails> {
    const stored = isLinkTokenFormat(token)
      ? await this.store.findLinkToken(linkTokenHash(token))
      : null;
    const live = this.liveLink(stored, this.clock());
    const user = await this.store.findById(live.userId);
    if (user === null) throw linkInvalid();
    return { purpose: live.purpose, email: user.email, name: user.name, expiresAt: live.expiresAt };
  }

  /**
   * Uses a one-time link: sets the password it was issued for, once. Refused when the link is
   * unknown, used, superseded or expired, or the user was disabled meanwhile; then the link
   * stays as it was. Every session of the user ends.
   */
  async completeLink(
    token: string,
    password: string,
    context: Omit<AuditContext, 'actor'> = {},
  ): Promise<UserRecord> {
    if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH) {
      throw new UserError('invalid_request', 'The password is too short', [
        { field: 'password', message: `must be at least ${PASSWORD_MIN_LENGTH} characters` },
      ]);
    }
    if (password.length > PASSWORD_MAX_LENGTH) {
      throw new UserError('invalid_request', 'The password is too long', [
        { field: 'password', message: `must be at most ${PASSWORD_MAX_LENGTH} characters` },
      ]);
    }
    if (!isLinkTokenFormat(token)) throw linkInvalid();
    const passwordHash = await this.hasher.hash(password);
    const hash = linkTokenHash(token);
    return this.inTransaction(async (store, events) => {
      const now = this.clock();
      const consumed = await store.consumeLinkToken(hash, now);
      if (consumed === null) this.liveLink(await store.findLinkToken(hash), now);
      const link = consumed!;
      const user = await store.lockById(link.userId);
      if (user === null) throw linkInvalid();
      if (!(await store.setPassword(user.id, passwordHash, now))) {
        throw new UserError('user_disabled', `${user.email} is disabled`);
      }
      await store.deleteSessions(user.id);
      await events.push(
        { ...context, actor: userActor(user) },
        link.purpose === 'invitation' ? 'user.invitation_accepted' : 'user.password_reset',
        user,
        { email: user.email },
      );
      this.logger.info({ userId: user.id, purpose: link.purpose }, 'password set from a link');
      return user;
    });
  }

  /**
   * The user a single sign-on identity signs in as: the one linked to its issuer and subject;
   * else, for a verified email, the user with that email (linked from then on); else, when
   * provisioning allows, a new user with the provisioning role. Refused for a disabled user,
   * an email linked to another identity, or an unknown identity without provisioning.
   */
  async resolveIdentity(
    identity: VerifiedIdentity,
    provisioning: IdentityProvisioning,
    context: Omit<AuditContext, 'actor'> = {},
  ): Promise<UserRecord> {
    const now = this.clock();
    const user = await this.inTransaction(async (store, events) => {
      const linked = await store.findByOidcIdentity(identity.issuer, identity.subject);
      if (linked !== null) return recordOf(linked);
      const email = normalizeEmail(identity.email ?? '');
      if (!identity.emailVerified || email === '') {
        throw new UserError(
          'not_provisioned',
          'The identity provider did not verify an email address for this account',
        );
      }
      const existing = await store.findByEmail(email);
      if (existing !== null) {
        if (!(await store.linkOidcIdentity(existing.id, identity.issuer, identity.subject))) {
          throw new UserError(
            'identity_conflict',
            `${email} is already linked to another account of the identity provider`,
          );
        }
        await events.push(
          { ...context, actor: userActor(existing) },
          'user.identity_linked',
          existing,
          {
            email,
            issuer: identity.issuer,
          },
        );
        return recordOf(existing);
      }
      if (provisioning.role === null) {
        throw new UserError(
          'not_provisioned',
          `No user has the email ${email}; ask an admin to add you`,
        );
      }
      const name =
        (identity.name ?? '').trim().slice(0, USER_NAME_MAX_LENGTH) || email.split('@')[0];
      const created = await store.insert({
        email,
        name,
        role: provisioning.role,
        passwordHash: null,
        createdAt: now,
        oidcIdentity: { issuer: identity.issuer, subject: identity.subject },
      });
      if (created === null) throw emailTaken(email);
      await events.push({ ...context, actor: userActor(created) }, 'user.created', created, {
        email,
        role: created.role,
        via: 'single sign-on',
        issuer: identity.issuer,
      });
      return created;
    });
    if (user.disabledAt !== null) {
      throw new UserError('user_disabled', `${user.email} is disabled`);
    }
    await this.store.recordSignIn(user.id, now);
    return user;
  }

  private async issueLink(
    store: UserStore,
    user: UserRecord,
    purpose: OneTimeLinkPurpose,
    now: Date,
  ): Promise<OneTimeLink> {
    const { token, hash } = newLinkToken();
    const lifetime =
      purpose === 'invitation' ? this.invitationLifetimeMs : this.passwordResetLifetimeMs;
    const expiresAt = new Date(now.getTime() + lifetime);
    await store.insertLinkToken({ hash, userId: user.id, purpose, createdAt: now, expiresAt });
    return { purpose, token, expiresAt, userId: user.id, email: user.email };
  }

  /** The link if it can still be used at `now`; otherwise the UserError that says why not. */
  private liveLink(stored: StoredLinkToken | null, now: Date): StoredLinkToken {
    if (stored === null) throw linkInvalid();
    const what = describePurpose(stored.purpose);
    if (stored.usedAt !== null) {
      throw new UserError('reset_link_used', `This ${what} was already used; ask for a new one`);
    }
    if (stored.supersededAt !== null) {
      throw new UserError(
        'reset_link_superseded',
        `A newer ${what} was issued; use the latest one`,
      );
    }
    if (stored.expiresAt <= now) {
      throw new UserError(
        'reset_link_expired',
        `This ${what} expired at ${stored.expiresAt.toISOString()}; ask for a new one`,
      );
    }
    return stored;
  }

  /** A change under the admin-set lock, on the locked row of user `id`. */
  private async changeAdminSet<T>(
    id: string,
    change: (store: UserStore, user: UserRecord, events: AuditEvents) => Promise<T>,
  ): Promise<T> {
    return this.inTransaction(async (store, events, tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [ADMIN_SET_LOCK_KEY]);
      const user = await store.lockById(id);
      if (user === null) throw notFound(id);
      return change(store, user, events);
    });
  }

  private async inTransaction<T>(
    work: (store: UserStore, events: AuditEvents, tx: SqlExecutor) => Promise<T>,
  ): Promise<T> {
    return this.sql.transaction((tx) =>
      work(new SqlUserStore(tx), new AuditEvents(new SqlAuditLog(tx), this.clock), tx),
    );
  }

  private dummyPasswordHash(): Promise<string> {
    this.dummyHash ??= this.hasher.hash('not a password of anyone');
    return this.dummyHash;
  }
}

/** Audit events of user changes, recorded in the transaction of the change. */
class AuditEvents {
  constructor(
    private readonly log: SqlAuditLog,
    private readonly clock: () => Date,
  ) {}

  push(
    context: AuditContext,
    action: NewAuditEvent['action'],
    user: UserRecord,
    details: Record<string, unknown>,
  ): Promise<void> {
    return this.log.append({
      action,
      context,
      target: { type: 'user', id: user.id },
      details,
      occurredAt: this.clock(),
    });
  }
}

/** Only the fields of a UserRecord, whatever else a stored row carried. */
function recordOf(user: UserRecord): UserRecord {
  const { id, email, name, role, createdAt, disabledAt } = user;
  return { id, email, name, role, createdAt, disabledAt };
}

function emailTaken(email: string): UserError {
  return new UserError('email_taken', `A user with email ${email} already exists`, [
    { field: 'email', message: 'is already taken' },
  ]);
}

function notFound(id: string): UserError {
  return new UserError('not_found', `No user with id ${id}`);
}

function linkInvalid(): UserError {
  return new UserError(
    'reset_link_invalid',
    'This link is not valid: check that it was copied whole, or ask for a new one',
  );
}

function lastAdmin(user: UserRecord, verb: 'demote' | 'disable' | 'delete'): UserError {
  return new UserError(
    'last_admin',
    `${user.email} is the last active ${roleLabel('admin').toLowerCase()}: cannot ${verb} them. ` +
      'Make another user an admin first.',
  );
}
