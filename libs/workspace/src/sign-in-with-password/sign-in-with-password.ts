import { type UserRecord } from '@vigil/control-plane';
import { type SignInThrottling, type SignInUsers } from '../ports/sign-in';
import { SignInError } from '../sign-in/sign-in-error';
import { type AttemptContext, type SignInOutcomes } from '../sign-in/sign-in-outcomes';

export interface SignInWithPasswordCommand extends AttemptContext {
  readonly email: string;
  readonly password: string;
  /** The client's address as TRUST_PROXY resolves it: the throttle's key. */
  readonly address: string;
}

const INCORRECT = 'The email or password is incorrect.';

/** "30 seconds", "1 minute", "15 minutes". */
function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * Signs in with an email and a password, through the throttle: an attempt held back is refused
 * before its password is checked (`throttled`, with the wait); a wrong password, an unknown
 * email and a disabled user are all `bad_credentials` (the audit log says which); only failures
 * count. Returns the user to open a session for.
 */
export class SignInWithPassword {
  constructor(
    private readonly users: SignInUsers,
    private readonly throttle: SignInThrottling,
    private readonly outcomes: SignInOutcomes,
    private readonly options: { readonly enabled: boolean } = { enabled: true },
  ) {}

  async execute(command: SignInWithPasswordCommand): Promise<UserRecord> {
    const { email, password, address } = command;
    if (!this.options.enabled) {
      throw new SignInError(
        'password_sign_in_off',
        'Password sign-in is turned off for this workspace: use single sign-on.',
      );
    }
    const decision = await this.throttle.check(email, address);
    if (!decision.allowed) {
      await this.outcomes.throttled({ ...command, ...decision });
      throw new SignInError(
        'throttled',
        `Too many failed sign-in attempts. Try again in ${waitText(decision.retryAfterSeconds)}.`,
        decision.retryAfterSeconds,
      );
    }
    const check = await this.users.checkPassword(email, password);
    if (!check.accepted) {
      const { waits } = await this.throttle.recordFailure(email, address);
      await this.outcomes.failed({
        ...command,
        method: 'password',
        reason: check.reason,
        user: check.user,
        details: waits.length > 0 ? { waits } : undefined,
      });
      throw new SignInError('bad_credentials', INCORRECT);
    }
    await this.throttle.recordSuccess(email, address);
    await this.outcomes.succeeded(check.user, 'password', command);
    return check.user;
  }
}
