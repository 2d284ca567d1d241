import { type FieldProblem } from '../api-tokens/token-error';

export type UserErrorCode = 'invalid_request' | 'email_taken';

/** A user use case refused its input; `details` name the fields. */
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
