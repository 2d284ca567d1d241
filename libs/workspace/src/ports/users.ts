import {
  type AuditContext,
  type CreateUserCommand,
  type InvitedUser,
  type OneTimeLink,
  type OneTimeLinkDetails,
  type UserRecord,
  type UserView,
} from '@vigil/control-plane';

/**
 * The people who sign in to the web application (UserService); refusals are UserErrors. Every
 * change is recorded in the audit log in the transaction that makes it, under `audit`.
 */
export interface Users {
  createUser(command: CreateUserCommand, audit?: AuditContext): Promise<UserRecord>;
  inviteUser(
    command: Omit<CreateUserCommand, 'password'>,
    audit: AuditContext,
  ): Promise<InvitedUser>;
  /** Every user, by email, with their status and last sign-in. */
  list(): Promise<UserView[]>;
  changeRole(id: string, role: string, audit: AuditContext): Promise<UserRecord>;
  disable(id: string, audit: AuditContext): Promise<UserRecord>;
  enable(id: string, audit: AuditContext): Promise<UserRecord>;
  delete(id: string, audit: AuditContext): Promise<UserRecord>;
  issuePasswordReset(id: string, audit: AuditContext): Promise<OneTimeLink>;
  describeLink(token: string): Promise<OneTimeLinkDetails>;
  completeLink(
    token: string,
    password: string,
    context?: Omit<AuditContext, 'actor'>,
  ): Promise<UserRecord>;
}
