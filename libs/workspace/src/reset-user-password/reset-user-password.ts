import { type AuditContext } from '@vigil/control-plane';
import { type Users } from '../ports/users';
import { type AccountLinks, type HandedOverLink } from '../user-links/account-links';

/**
 * Issues a password reset link (valid 24 hours, superseding the user's earlier ones): emailed
 * when an SMTP server is configured, otherwise shown to the admin once. The user's password
 * stays as it is until the link is used. A disabled user is refused (`user_disabled`).
 */
export class ResetUserPassword {
  constructor(
    private readonly users: Users,
    private readonly links: AccountLinks,
  ) {}

  async execute(
    command: { readonly userId: string },
    audit: AuditContext,
  ): Promise<HandedOverLink> {
    const user = (await this.users.list()).find((u) => u.id === command.userId);
    const link = await this.users.issuePasswordReset(command.userId, audit);
    return this.links.handOver(link, user?.name ?? link.email);
  }
}
