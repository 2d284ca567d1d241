import { type FieldProblem } from '../api-tokens/token-error';
import { isUserRole, type UserRole } from './user';
import { UserError } from './user-error';

export const USER_NAME_MAX_LENGTH = 100;
export const PASSWORD_MIN_LENGTH = 12;
/** Bounds the work a single sign-in attempt can ask of the hasher. */
export const PASSWORD_MAX_LENGTH = 256;
const EMAIL_MAX_LENGTH = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export interface CreateUserCommand {
  readonly email: string;
  readonly name: string;
  readonly role: string;
  readonly password: string;
}

export interface ValidUserRequest {
  readonly email: string;
  readonly name: string;
  readonly role: UserRole;
  readonly password: string;
}

/** Emails are compared lowercased and trimmed everywhere (sign-in, uniqueness). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Checks a new user: a plausible email, a name, a known role and a long enough password. */
export function validateCreateUser(command: CreateUserCommand): ValidUserRequest {
  const problems: FieldProblem[] = [];
  const email = normalizeEmail(typeof command.email === 'string' ? command.email : '');
  if (email.length === 0) problems.push({ field: 'email', message: 'is required' });
  else if (email.length > EMAIL_MAX_LENGTH || !EMAIL.test(email)) {
    problems.push({ field: 'email', message: 'must be an email address' });
  }
  const name = typeof command.name === 'string' ? command.name.trim() : '';
  if (name.length === 0) problems.push({ field: 'name', message: 'is required' });
  else if (name.length > USER_NAME_MAX_LENGTH) {
    problems.push({ field: 'name', message: `must be at most ${USER_NAME_MAX_LENGTH} characters` });
  } else if (CONTROL_CHARACTERS.test(name)) {
    problems.push({ field: 'name', message: 'must not contain control characters' });
  }
  if (!isUserRole(command.role)) {
    problems.push({ field: 'role', message: 'must be admin or member' });
  }
  const password = typeof command.password === 'string' ? command.password : '';
  if (password.length < PASSWORD_MIN_LENGTH) {
    problems.push({
      field: 'password',
      message: `must be at least ${PASSWORD_MIN_LENGTH} characters`,
    });
  } else if (password.length > PASSWORD_MAX_LENGTH) {
    problems.push({
      field: 'password',
      message: `must be at most ${PASSWORD_MAX_LENGTH} characters`,
    });
  }
  if (problems.length > 0 || !isUserRole(command.role)) {
    throw new UserError('invalid_request', 'The user request is invalid', problems);
  }
  return { email, name, role: command.role, password };
}
