import { userActor, type UserRecord } from '@vigil/control-plane';
import { type AuditTrail } from '../ports/audit-trail';
import { type AttemptContext } from '../sign-in/sign-in-outcomes';

/** Ends sessions (SessionService). */
export interface SessionEnding {
  endSession(token: string | undefined): Promise<void>;
}

/**
 * Signs out: the session ends server-side, so its cookie is worthless wherever it was copied.
 * A signed-in user's sign-out is audited; a request without a live session changes nothing.
 */
export class SignOut {
  constructor(
    private readonly sessions: SessionEnding,
    private readonly audit: AuditTrail,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(
    command: AttemptContext & {
      readonly token: string | undefined;
      readonly user: UserRecord | null;
    },
  ): Promise<void> {
    await this.sessions.endSession(command.token);
    if (command.user === null) return;
    await this.audit.append({
      action: 'user.signed_out',
      context: {
        actor: userActor(command.user),
        address: command.address,
        requestId: command.requestId ?? null,
      },
      target: { type: 'user', id: command.user.id },
      occurredAt: this.clock(),
    });
  }
}
