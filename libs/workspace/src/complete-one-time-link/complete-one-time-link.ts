import {
  UserError,
  type AuditContext,
  type OneTimeLinkPurpose,
  type UserRecord,
} from '@vigil/control-plane';
import { type Users } from '../ports/users';
import { linkOfAnotherKind } from '../show-one-time-link/show-one-time-link';

export interface CompleteOneTimeLinkCommand {
  readonly token: string;
  readonly purpose: OneTimeLinkPurpose;
  readonly password: string;
  /** The password typed a second time: a typo there would lock the user out. */
  readonly confirmation: string;
}

/**
 * Sets the password a one-time link was issued for, once, and ends every session of the user;
 * it signs nobody in. Refused, leaving the link as it was: a confirmation that differs or a
 * password that breaks the rules (`invalid_request` naming the field), and a link that is
 * unknown, of the other kind, expired, used or superseded. The event is audited under the user.
 */
export class CompleteOneTimeLink {
  constructor(private readonly users: Users) {}

  async execute(
    command: CompleteOneTimeLinkCommand,
    context: Omit<AuditContext, 'actor'>,
  ): Promise<UserRecord> {
    const details = await this.users.describeLink(command.token);
    if (details.purpose !== command.purpose) throw linkOfAnotherKind();
    if (command.password !== command.confirmation) {
      throw new UserError('invalid_request', 'The two passwords differ', [
        { field: 'confirmation', message: 'must be the same password' },
      ]);
    }
    return this.users.completeLink(command.token, command.password, context);
  }
}
