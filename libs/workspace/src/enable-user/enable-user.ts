import { type AuditContext, type UserRecord } from '@vigil/control-plane';
import { type Users } from '../ports/users';

/** Lets a disabled user sign in again (with their password, which was kept). */
export class EnableUser {
  constructor(private readonly users: Users) {}

  execute(command: { readonly userId: string }, audit: AuditContext): Promise<UserRecord> {
    return this.users.enable(command.userId, audit);
  }
}
