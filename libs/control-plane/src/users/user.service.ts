import { silentLogger, type ControlPlaneLogger } from '../sql/sql-client';
import {
  PASSWORD_MAX_LENGTH,
  normalizeEmail,
  validateCreateUser,
  type CreateUserCommand,
} from './create-user-command';
import { Argon2PasswordHasher, type PasswordHasher } from './password-hasher';
import { type UserRecord } from './user';
import { UserError } from './user-error';
import { type UserStore } from './user-store';

export interface UserServiceOptions {
  readonly clock?: () => Date;
  readonly hasher?: PasswordHasher;
  readonly logger?: ControlPlaneLogger;
}

/** The user use cases: create (operator CLI, first start), check credentials, look up. */
export class UserService {
  private readonly clock: () => Date;
  private readonly hasher: PasswordHasher;
  private readonly logger: ControlPlaneLogger;
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly store: UserStore,
    options: UserServiceOptions = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.hasher = options.hasher ?? new Argon2PasswordHasher();
    this.logger = options.logger ?? silentLogger;
  }

  /** Creates a user; refuses invalid input and a taken email with a UserError. */
  async createUser(command: CreateUserCommand): Promise<UserRecord> {
    const request = validateCreateUser(command);
    const created = await this.store.insert({
      email: request.email,
      name: request.name,
      role: request.role,
      passwordHash: await this.hasher.hash(request.password),
      createdAt: this.clock(),
    });
    if (created === null) {
      throw new UserError('email_taken', `A user with email ${request.email} already exists`, [
        { field: 'email', message: 'is already taken' },
      ]);
    }
    this.logger.info({ userId: created.id, role: created.role }, 'user created');
    return created;
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
   * The enabled user with this email and password, or null. An unknown email costs the same
   * hash verification as a wrong password, so timing does not reveal which emails exist.
   */
  async verifyCredentials(email: string, password: string): Promise<UserRecord | null> {
    if (typeof password !== 'string' || password.length > PASSWORD_MAX_LENGTH) return null;
    const user = await this.store.findByEmail(normalizeEmail(email));
    if (user === null) {
      await this.hasher.verify(await this.dummyPasswordHash(), password);
      return null;
    }
    const matches = await this.hasher.verify(user.passwordHash, password);
    if (!matches || user.disabledAt !== null) return null;
    const { passwordHash: _hash, ...record } = user;
    return record;
  }

  async findById(id: string): Promise<UserRecord | null> {
    return this.store.findById(id);
  }

  private dummyPasswordHash(): Promise<string> {
    this.dummyHash ??= this.hasher.hash('not a password of anyone');
    return this.dummyHash;
  }
}
