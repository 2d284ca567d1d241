import { type AuditContext, type UserRecord } from '@vigil/control-plane';
import { type Users } from '../ports/users';

/**
 * Makes a user a workspace admin or a member. Their sessions end, so the change applies to their
 * next request; demoting the last active admin is refused (UserError `last_admin`), an unknown
 * role too (`invalid_request`).
 */
export class ChangeUserRole {
  constructor(private readonly users: Users) {}

  execute(
    command: { readonly userId: string; readonly role: string },
    audit: AuditContext,
  ): Promise<UserRecord> {
    return this.users.changeRole(command.userId, command.role, audit);
  }
}
