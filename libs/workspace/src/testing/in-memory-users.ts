import {
  PASSWORD_MIN_LENGTH,
  UserError,
  isUserRole,
  validateCreateUser,
  type AuditContext,
  type CreateUserCommand,
  type InvitedUser,
  type OneTimeLink,
  type OneTimeLinkDetails,
  type OneTimeLinkPurpose,
  type UserRecord,
  type UserView,
} from '@vigil/control-plane';
import { type Users } from '../ports/users';

interface Link {
  readonly purpose: OneTimeLinkPurpose;
  readonly userId: string;
  readonly expiresAt: Date;
  used: boolean;
  superseded: boolean;
}

/**
 * The users of the specs, under UserService's rules: unique emails, never no active admin,
 * one-time links that work once before they expire. `now` is the clock; every change is kept
 * in `audited` with its context.
 */
export class InMemoryUsers implements Users {
  readonly users: (UserView & { password: string | null })[] = [];
  readonly audited: { action: string; userId: string; context: AuditContext | undefined }[] = [];
  readonly links = new Map<string, Link>();
  now = new Date('2026-03-01T00:00:00Z');

  async createUser(command: CreateUserCommand, audit?: AuditContext): Promise<UserRecord> {
    const valid = validateCreateUser(command);
    const user = this.insert(valid.email, valid.name, valid.role, valid.password);
    this.audited.push({ action: 'user.created', userId: user.id, context: audit });
    return recordOf(user);
  }

  async inviteUser(
    command: Omit<CreateUserCommand, 'password'>,
    audit: AuditContext,
  ): Promise<InvitedUser> {
    const valid = validateCreateUser({ ...command, password: 'x'.repeat(PASSWORD_MIN_LENGTH) });
    const user = this.insert(valid.email, valid.name, valid.role, null);
    this.audited.push({ action: 'user.invited', userId: user.id, context: audit });
    return { user: recordOf(user), link: this.issue(user, 'invitation', 7 * 24) };
  }

  async list(): Promise<UserView[]> {
    return this.users.map(({ password: _password, ...view }) => ({ ...view }));
  }

  async changeRole(id: string, role: string, audit: AuditContext): Promise<UserRecord> {
    if (!isUserRole(role))
      throw new UserError('invalid_request', 'The role must be admin or member');
    const user = this.find(id);
    if (user.role === role) return recordOf(user);
    if (role === 'member') this.keepAnAdmin(user, 'demote');
    Object.assign(user, { role });
    this.audited.push({ action: 'user.role_changed', userId: id, context: audit });
    return recordOf(user);
  }

  async disable(id: string, audit: AuditContext): Promise<UserRecord> {
    const user = this.find(id);
    if (user.disabledAt !== null) return recordOf(user);
    this.keepAnAdmin(user, 'disable');
    Object.assign(user, { disabledAt: this.now, status: 'disabled' });
    this.audited.push({ action: 'user.disabled', userId: id, context: audit });
    return recordOf(user);
  }

  async enable(id: string, audit: AuditContext): Promise<UserRecord> {
    const user = this.find(id);
    if (user.disabledAt === null) return recordOf(user);
    Object.assign(user, {
      disabledAt: null,
      status: user.password === null ? 'invited' : 'active',
    });
    this.audited.push({ action: 'user.enabled', userId: id, context: audit });
    return recordOf(user);
  }

  async delete(id: string, audit: AuditContext): Promise<UserRecord> {
    const user = this.find(id);
    this.keepAnAdmin(user, 'delete');
    this.users.splice(this.users.indexOf(user), 1);
    this.audited.push({ action: 'user.deleted', userId: id, context: audit });
    return recordOf(user);
  }

  async issuePasswordReset(id: string, audit: AuditContext): Promise<OneTimeLink> {
    const user = this.find(id);
    if (user.disabledAt !== null) {
      throw new UserError('user_disabled', `${user.email} is disabled: enable the user first`);
    }
    this.audited.push({ action: 'user.password_reset_issued', userId: id, context: audit });
    return this.issue(user, 'password_reset', 24);
  }

  async describeLink(token: string): Promise<OneTimeLinkDetails> {
    const link = this.live(token);
    const user = this.find(link.userId);
    return { purpose: link.purpose, email: user.email, name: user.name, expiresAt: link.expiresAt };
  }

  async completeLink(
    token: string,
    password: string,
    context: Omit<AuditContext, 'actor'> = {},
  ): Promise<UserRecord> {
    if (password.length < PASSWORD_MIN_LENGTH) {
      throw new UserError('invalid_request', 'The password is too short', [
        { field: 'password', message: `must be at least ${PASSWORD_MIN_LENGTH} characters` },
      ]);
    }
    const link = this.live(token);
    const user = this.find(link.userId);
    link.used = true;
    Object.assign(user, { password, status: 'active', hasPassword: true });
    this.audited.push({
      action: link.purpose === 'invitation' ? 'user.invitation_accepted' : 'user.password_reset',
      userId: user.id,
      context: { ...context, actor: { type: 'user', id: user.id, label: user.email } },
    });
    return recordOf(user);
  }

  /** A user straight into the list, for a spec's starting state. */
  add(email: string, role: 'admin' | 'member' = 'member'): UserRecord {
    return recordOf(this.insert(email, email.split('@')[0], role, 'a long enough password'));
  }

  private insert(email: string, name: string, role: 'admin' | 'member', password: string | null) {
    if (this.users.some((u) => u.email === email)) {
      throw new UserError('email_taken', `A user with email ${email} already exists`, [
        { field: 'email', message: 'is already taken' },
      ]);
    }
    const user = {
      id: `user-${this.users.length + 1}`,
      email,
      name,
      role,
      createdAt: this.now,
      disabledAt: null,
      status: password === null ? ('invited' as const) : ('active' as const),
      lastSignInAt: null,
      passwordChangedAt: null,
      hasPassword: password !== null,
      singleSignOn: false,
      password,
    };
    this.users.push(user);
    return user;
  }

  private find(id: string) {
    const user = this.users.find((u) => u.id === id);
    if (user === undefined) throw new UserError('not_found', `No user with id ${id}`);
    return user;
  }

  private keepAnAdmin(user: UserView, verb: string): void {
    const others = this.users.filter(
      (u) => u.id !== user.id && u.role === 'admin' && u.disabledAt === null,
    );
    if (user.role === 'admin' && user.disabledAt === null && others.length === 0) {
      throw new UserError(
        'last_admin',
        `${user.email} is the last active admin: cannot ${verb} them`,
      );
    }
  }

  private issue(user: UserView, purpose: OneTimeLinkPurpose, hours: number): OneTimeLink {
    for (const link of this.links.values()) {
      if (link.userId === user.id && link.purpose === purpose) link.superseded = true;
    }
    const token = `${purpose}-${this.links.size + 1}`.padEnd(43, '0');
    const expiresAt = new Date(this.now.getTime() + hours * 3_600_000);
    this.links.set(token, { purpose, userId: user.id, expiresAt, used: false, superseded: false });
    return { purpose, token, expiresAt, userId: user.id, email: user.email };
  }

  private live(token: string): Link {
    const link = this.links.get(token);
    if (link === undefined) throw new UserError('reset_link_invalid', 'This link is not valid');
    if (link.used) throw new UserError('reset_link_used', 'This link was already used');
    if (link.superseded) throw new UserError('reset_link_superseded', 'A newer link was issued');
    if (link.expiresAt <= this.now) throw new UserError('reset_link_expired', 'This link expired');
    return link;
  }
}

function recordOf(user: UserRecord): UserRecord {
  const { id, email, name, role, createdAt, disabledAt } = user;
  return { id, email, name, role, createdAt, disabledAt };
}
