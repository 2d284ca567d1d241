import { type AuditContext, type UserRecord } from '@vigil/control-plane';
import { type Users } from '../ports/users';

/**
 * Deletes a user with their sessions and links; the audit log keeps what they did. The last
 * active admin cannot be deleted (UserError `last_admin`).
 */
export class DeleteUser {
  constructor(private readonly users: Users) {}

  execute(command: { readonly userId: string }, audit: AuditContext): Promise<UserRecord> {
    return this.users.delete(command.userId, audit);
  }
}
