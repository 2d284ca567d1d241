/**
 * What a workspace use case refuses on its own account; the edges map each code to their
 * answer (an HTTP status and page, an exit code), never the use case.
 * - `not_found`: the detection, investigation, API key, provider or delivery does not exist
 *   (or the delivery is not the named detection's or provider's).
 * - `invalid_cursor`: a page cursor that no page issued.
 * - `invalid_settings`: notification settings that break the rules; `details` name the fields.
 */
export type WorkspaceErrorCode = 'not_found' | 'invalid_cursor' | 'invalid_settings';

/** One refused field: its path (e.g. `recipients[1]`) and what is wrong with it. */
export interface WorkspaceFieldProblem {
  readonly field: string;
  readonly message: string;
}

export class WorkspaceError extends Error {
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
    readonly details: readonly WorkspaceFieldProblem[] = [],
  ) {
    super(message);
    this.name = 'WorkspaceError';
  }
}
