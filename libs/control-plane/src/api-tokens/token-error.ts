export type TokenErrorCode = 'invalid_request' | 'not_found';

export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

/** A token use case refused its input; the edge maps the code to 400 / 404. */
export class TokenError extends Error {
  constructor(
    readonly code: TokenErrorCode,
    message: string,
    readonly details: readonly FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'TokenError';
  }
}
