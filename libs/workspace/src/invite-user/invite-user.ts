import { type AuditContext, type CreateUserCommand, type UserRecord } from '@vigil/control-plane';
import { type Users } from '../ports/users';
import { type AccountLinks, type HandedOverLink } from '../user-links/account-links';

export interface InvitedMember {
  readonly user: UserRecord;
  readonly link: HandedOverLink;
}

/**
 * Adds a user without a password and hands them an invitation link (valid 7 days) with which
 * they choose one: emailed when an SMTP server is configured, otherwise shown to the admin
 * once. A refusal is a UserError (`invalid_request` naming the fields, or `email_taken`).
 */
export class InviteUser {
  constructor(
    private readonly users: Users,
    private readonly links: AccountLinks,
  ) {}

  async execute(
    command: Omit<CreateUserCommand, 'password'>,
    audit: AuditContext,
  ): Promise<InvitedMember> {
    const { user, link } = await this.users.inviteUser(command, audit);
    return { user, link: await this.links.handOver(link, user.name) };
  }
}
