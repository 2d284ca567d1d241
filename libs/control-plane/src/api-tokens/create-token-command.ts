import { atLeastOneScope, parsePermissions, type Permissions } from '../permissions/permissions';
import { TokenError, type FieldProblem } from './token-error';

export const TOKEN_NAME_MAX_LENGTH = 100;
export const DEFAULT_TOKEN_LIFETIME_DAYS = 90;
export const MAX_TOKEN_LIFETIME_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface CreateTokenCommand {
  readonly name: string;
  /** Scope to level; scopes left out are None. */
  readonly permissions: unknown;
  /** Either an instant or a number of days from now; neither means 90 days. */
  readonly expiresAt?: Date;
  readonly expiresInDays?: number;
  /** Who created it (a user id, or `cli` for the operator CLI). */
  readonly createdBy?: string | null;
}

export interface ValidTokenRequest {
  readonly name: string;
  readonly permissions: Permissions;
  readonly expiresAt: Date;
  readonly createdBy: string | null;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * The rules of SPEC.md §2.4/§3.1 and DESIGN.md §6: a name (trimmed, 1..100 characters), at
 * least one scope above None, and an Expires At in the future and at most a year away
 * (default 90 days). Reports every problem at once.
 */
export function validateCreateToken(command: CreateTokenCommand, now: Date): ValidTokenRequest {
  const problems: FieldProblem[] = [];

  const name = typeof command.name === 'string' ? command.name.trim() : '';
  if (name.length === 0) problems.push({ field: 'name', message: 'is required' });
  else if (name.length > TOKEN_NAME_MAX_LENGTH) {
    problems.push({
      field: 'name',
      message: `must be at most ${TOKEN_NAME_MAX_LENGTH} characters`,
    });
  } else if (CONTROL_CHARACTERS.test(name)) {
    problems.push({ field: 'name', message: 'must not contain control characters' });
  }

  let permissions: Permissions | undefined;
  const parsed = parsePermissions(command.permissions);
  if (!parsed.ok) problems.push(...parsed.problems);
  else if (!atLeastOneScope(parsed.permissions)) {
    problems.push({ field: 'permissions', message: 'at least one scope must be above None' });
  } else permissions = parsed.permissions;

  const expiresAt = resolveExpiry(command, now, problems);

  const createdBy = command.createdBy?.trim() || null;
  if (createdBy !== null && createdBy.length > 200) {
    problems.push({ field: 'createdBy', message: 'must be at most 200 characters' });
  }

  if (problems.length > 0 || permissions === undefined || expiresAt === undefined) {
    throw new TokenError('invalid_request', 'The token request is invalid', problems);
  }
  return { name, permissions, expiresAt, createdBy };
}

function resolveExpiry(
  command: CreateTokenCommand,
  now: Date,
  problems: FieldProblem[],
): Date | undefined {
  const latest = now.getTime() + MAX_TOKEN_LIFETIME_DAYS * DAY_MS;
  if (command.expiresAt !== undefined && command.expiresInDays !== undefined) {
    problems.push({ field: 'expiresAt', message: 'give either expiresAt or expiresInDays' });
    return undefined;
  }
  if (command.expiresAt !== undefined) {
    const at = command.expiresAt;
    if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
      problems.push({ field: 'expiresAt', message: 'must be a valid date' });
    } else if (at.getTime() <= now.getTime()) {
      problems.push({ field: 'expiresAt', message: 'must be in the future' });
    } else if (at.getTime() > latest) {
      problems.push({
        field: 'expiresAt',
        message: `must be at most ${MAX_TOKEN_LIFETIME_DAYS} days from now`,
      });
    } else return at;
    return undefined;
  }
  const days = command.expiresInDays ?? DEFAULT_TOKEN_LIFETIME_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_LIFETIME_DAYS) {
    problems.push({
      field: 'expiresInDays',
      message: `must be a whole number of days from 1 to ${MAX_TOKEN_LIFETIME_DAYS}`,
    });
    return undefined;
  }
  return new Date(now.getTime() + days * DAY_MS);
}
