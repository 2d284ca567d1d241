import { type AuditContext, type UserRecord } from '@vigil/control-plane';
import { type Users } from '../ports/users';

/**
 * Disables a user: their sessions end at once and sign-in is refused. The last active admin
 * cannot be disabled (UserError `last_admin`); an already disabled user stays as they are.
 */
export class DisableUser {
  constructor(private readonly users: Users) {}

  execute(command: { readonly userId: string }, audit: AuditContext): Promise<UserRecord> {
    return this.users.disable(command.userId, audit);
  }
}
