import { type AuditContext, type CreateUserCommand, type UserRecord } from '@vigil/control-plane';
import { type Users } from '../ports/users';

/**
 * Creates a person who signs in to the web application, as a workspace admin or a member. A
 * refusal is a UserError (`invalid_request` naming the fields, or `email_taken`).
 */
export class CreateUser {
  constructor(private readonly users: Users) {}

  /** `audit` says who does it, from where, for the audit log. */
  execute(command: CreateUserCommand, audit?: AuditContext): Promise<UserRecord> {
    return this.users.createUser(command, audit);
  }
}
