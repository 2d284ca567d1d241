import { type FieldProblem } from '../api-tokens/token-error';

export type UserErrorCode =
  | 'invalid_request'
  | 'email_taken'
  | 'not_found'
  /** The change would leave no active workspace admin. */
  | 'last_admin'
  | 'user_disabled'
  /** A one-time link (password reset or invitation) that does not exist. */
  | 'reset_link_invalid'
  | 'reset_link_expired'
  | 'reset_link_used'
  /** A newer link of the same kind was issued for the user. */
  | 'reset_link_superseded'
  /** A single sign-on identity with no matching user, and no automatic provisioning. */
  | 'not_provisioned'
  /** The email's user is already linked to another identity of the provider. */
  | 'identity_conflict';

/** A user use case refused its input or the change; `details` name the fields. */
export class UserError extends Error {
  constructor(
    readonly code: UserErrorCode,
    message: string,
    readonly details: readonly FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'UserError';
  }
}
