import { completePermissions } from '../permissions/permissions';
import { validateCreateToken, type CreateTokenCommand } from './create-token-command';
import { TokenError } from './token-error';

const now = new Date('2025-06-01T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const valid: CreateTokenCommand = { name: 'SIEM export', permissions: { detection: 'read' } };

function problemsOf(command: CreateTokenCommand): string[] {
  try {
    validateCreateToken(command, now);
  } catch (error) {
    expect(error).toBeInstanceOf(TokenError);
    expect((error as TokenError).code).toBe('invalid_request');
    return (error as TokenError).details.map((d) => `${d.field}: ${d.message}`);
  }
  throw new Error('expected the command to be refused');
}

describe('validateCreateToken', () => {
  it('trims the name, completes the permissions and defaults Expires At to 90 days', () => {
    const request = validateCreateToken({ ...valid, name: '  SIEM export ' }, now);
    expect(request).toEqual({
      name: 'SIEM export',
      permissions: completePermissions({ detection: 'read' }),
      expiresAt: new Date(now.getTime() + 90 * DAY),
      createdBy: null,
    });
  });

  it('accepts an expiry in days or as a date up to a year away', () => {
    expect(validateCreateToken({ ...valid, expiresInDays: 30 }, now).expiresAt).toEqual(
      new Date(now.getTime() + 30 * DAY),
    );
    const at = new Date(now.getTime() + 365 * DAY);
    expect(validateCreateToken({ ...valid, expiresAt: at }, now).expiresAt).toEqual(at);
  });

  it('refuses a missing, blank or too long name', () => {
    expect(problemsOf({ ...valid, name: '   ' })).toEqual(['name: is required']);
    expect(problemsOf({ ...valid, name: 'x'.repeat(101) })).toEqual([
      'name: must be at most 100 characters',
    ]);
    expect(problemsOf({ ...valid, name: 'a\nb' })).toEqual([
      'name: must not contain control characters',
    ]);
    expect(validateCreateToken({ ...valid, name: 'x'.repeat(100) }, now).name).toHaveLength(100);
  });

  it('refuses a token with no scope above None, or unknown scopes', () => {
    expect(problemsOf({ ...valid, permissions: { detection: 'none' } })).toEqual([
      'permissions: at least one scope must be above None',
    ]);
    expect(problemsOf({ ...valid, permissions: {} })).toHaveLength(1);
    expect(problemsOf({ ...valid, permissions: { everything: 'write' } })[0]).toMatch(
      /^permissions.everything: unknown scope/,
    );
  });

  it('refuses an expiry in the past, now, or more than a year away', () => {
    expect(problemsOf({ ...valid, expiresAt: now })).toEqual(['expiresAt: must be in the future']);
    expect(problemsOf({ ...valid, expiresAt: new Date(now.getTime() + 366 * DAY) })).toEqual([
      'expiresAt: must be at most 365 days from now',
    ]);
    expect(problemsOf({ ...valid, expiresAt: new Date('nope') })).toEqual([
      'expiresAt: must be a valid date',
    ]);
    for (const days of [0, -1, 366, 1.5]) {
      expect(problemsOf({ ...valid, expiresInDays: days })).toHaveLength(1);
    }
    expect(problemsOf({ ...valid, expiresInDays: 3, expiresAt: new Date() })).toHaveLength(1);
  });

  it('reports every problem at once', () => {
    expect(problemsOf({ name: '', permissions: {}, expiresInDays: 0 })).toHaveLength(3);
  });
});
