import { SignInThrottle } from '@vigil/auth';
import { type PasswordCheck, type UserRecord } from '@vigil/control-plane';
import { type SignInObserver, type SignInUsers } from '../ports/sign-in';
import { SignInOutcomes } from '../sign-in/sign-in-outcomes';
import { InMemoryAuditLog } from '../testing/in-memory-audit-log';
import { SignInWithPassword } from './sign-in-with-password';

const NOW = new Date('2026-03-01T12:00:00Z');
const ADA: UserRecord = {
  id: 'u-ada',
  email: 'ada@example.com',
  name: 'Ada',
  role: 'admin',
  createdAt: NOW,
  disabledAt: null,
};
const PASSWORD = 'the right password';

class FakeUsers implements Pick<SignInUsers, 'checkPassword'> {
  disabled = false;
  async checkPassword(email: string, password: string): Promise<PasswordCheck> {
    if (email.toLowerCase() !== ADA.email) {
      return { accepted: false, reason: 'bad_credentials', user: null };
    }
    if (password !== PASSWORD) return { accepted: false, reason: 'bad_credentials', user: ADA };
    if (this.disabled) return { accepted: false, reason: 'disabled', user: ADA };
    return { accepted: true, user: ADA };
  }
}

function setUp(options: { enabled?: boolean } = {}) {
  const users = new FakeUsers();
  const audit = new InMemoryAuditLog();
  const lines: { level: string; fields: Record<string, unknown> }[] = [];
  const logger = {
    info: (fields: Record<string, unknown>) => void lines.push({ level: 'info', fields }),
    warn: (fields: Record<string, unknown>) => void lines.push({ level: 'warn', fields }),
  };
  const counted: string[] = [];
  const observer: SignInObserver = {
    succeeded: (e) => void counted.push(`succeeded:${e.method}`),
    failed: (e) => void counted.push(`failed:${e.reason}`),
    throttled: (e) => void counted.push(`throttled:${e.limit}`),
  };
  const outcomes = new SignInOutcomes(audit, logger, observer, () => NOW);
  const useCase = new SignInWithPassword(
    users as unknown as SignInUsers,
    new SignInThrottle({ kind: 'memory' }),
    outcomes,
    { enabled: options.enabled ?? true },
  );
  const attempt = (email: string, password: string, address = '192.0.2.1') =>
    useCase.execute({ email, password, address, requestId: 'req-1' }).catch((e: unknown) => e);
  return { users, audit, lines, counted, attempt };
}

describe('SignInWithPassword', () => {
  it('signs in with the right password, audited and counted as a password sign-in', async () => {
    const { audit, counted, attempt } = setUp();
    expect(await attempt('ADA@example.com', PASSWORD)).toEqual(ADA);
    expect(audit.events).toMatchObject([
      {
        action: 'user.sign_in.succeeded',
        actor: { id: 'u-ada', label: 'ada@example.com' },
        address: '192.0.2.1',
        requestId: 'req-1',
        details: { method: 'password' },
      },
    ]);
    expect(counted).toEqual(['succeeded:password']);
  });

  it('refuses a wrong password, an unknown email and a disabled user with the same words', async () => {
    const { users, audit, attempt } = setUp();
    const wrong = await attempt('ada@example.com', 'nope');
    const unknown = await attempt('bob@example.com', 'nope');
    users.disabled = true;
    const disabled = await attempt('ada@example.com', PASSWORD);
    for (const refusal of [wrong, unknown, disabled]) {
      expect(refusal).toMatchObject({
        code: 'bad_credentials',
        message: 'The email or password is incorrect.',
      });
    }
    expect(audit.events.map((e) => [e.actor.label, e.details.reason])).toEqual([
      ['ada@example.com', 'disabled'],
      ['bob@example.com', 'bad_credentials'],
      ['ada@example.com', 'bad_credentials'],
    ]);
  });

  it('logs a failure as one warning without the password, naming an unknown account by domain and hash', async () => {
    const { lines, attempt } = setUp();
    await attempt('Bob@Example.com', 'hunter2 hunter2');
    await attempt('hunter2 typed as email', 'x');
    expect(lines).toEqual([
      {
        level: 'warn',
        fields: expect.objectContaining({
          event: 'sign_in.failed',
          reason: 'bad_credentials',
          address: '192.0.2.1',
          emailDomain: 'example.com',
          emailHash: expect.stringMatching(/^[0-9a-f]{12}$/),
        }),
      },
      {
        level: 'warn',
        fields: expect.objectContaining({ account: 'not an email address' }),
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });

  it('holds an account back at an address after its free failures, before checking the password, and says how long', async () => {
    const { audit, counted, lines, attempt } = setUp();
    for (let i = 0; i < 5; i++) await attempt('ada@example.com', `guess ${i}`);
    const held = await attempt('ada@example.com', PASSWORD);
    expect(held).toMatchObject({
      code: 'throttled',
      retryAfterSeconds: 15,
      message: 'Too many failed sign-in attempts. Try again in 15 seconds.',
    });
    await attempt('ada@example.com', PASSWORD);
    expect(counted.slice(-2)).toEqual(['throttled:account_address', 'throttled:account_address']);
    expect(lines.filter((l) => l.fields.event === 'sign_in.throttled')).toHaveLength(2);
    // Audited once per wait, logged and counted every time.
    expect(audit.events.filter((e) => e.details.reason === 'throttled')).toHaveLength(1);
    expect(await attempt('ada@example.com', PASSWORD, '198.51.100.7')).toEqual(ADA);
  });

  it('refuses every password when password sign-in is off', async () => {
    const { audit, attempt } = setUp({ enabled: false });
    expect(await attempt('ada@example.com', PASSWORD)).toMatchObject({
      code: 'password_sign_in_off',
    });
    expect(audit.events).toEqual([]);
  });
});
