import { UserError, type OneTimeLinkDetails, type OneTimeLinkPurpose } from '@vigil/control-plane';
import { type Users } from '../ports/users';

/**
 * Who a one-time link is for, before its holder chooses a password. A link of the other kind
 * (an invitation opened as a password reset, or the reverse) is refused as not valid, like an
 * unknown one; an expired, used or superseded link is a UserError saying so.
 *
 * Nothing throttles these pages: a link token is 32 random bytes, so guessing one is hopeless
 * however fast it is tried, and each attempt costs one indexed lookup of its hash.
 */
export class ShowOneTimeLink {
  constructor(private readonly users: Users) {}

  async execute(query: {
    readonly token: string;
    readonly purpose: OneTimeLinkPurpose;
  }): Promise<OneTimeLinkDetails> {
    const details = await this.users.describeLink(query.token);
    if (details.purpose !== query.purpose) throw linkOfAnotherKind();
    return details;
  }
}

export function linkOfAnotherKind(): UserError {
  return new UserError(
    'reset_link_invalid',
    'This link is not valid: check that it was copied whole, or ask for a new one',
  );
}
