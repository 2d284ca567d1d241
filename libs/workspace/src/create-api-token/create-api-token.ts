import {
  TokenError,
  describePermissions,
  validateCreateToken,
  type AuditContext,
  type CreateTokenCommand,
  type CreatedToken,
  type FieldProblem,
} from '@vigil/control-plane';
import { type ApiTokens } from '../ports/api-tokens';
import { type AuditTrail } from '../ports/audit-trail';

export interface CreateApiTokenCommand extends CreateTokenCommand {
  /**
   * Problems the caller found in its own input (a form's fixed choices), reported together with
   * those of the token rules; nothing is created while there are any.
   */
  readonly refused?: readonly FieldProblem[];
  /** When the command is checked; the token's expiry counts from the token service's clock. */
  readonly now: Date;
}

/**
 * Creates an API token (SPEC.md §3.1) and returns its value, shown this once. Every problem is
 * reported at once, as a TokenError `invalid_request` naming the fields. The audit event is
 * appended right after the token is stored (the token store has no transaction to share): a
 * crash in between leaves a token without its event, never an event without its token.
 */
export class CreateApiToken {
  constructor(
    private readonly tokens: ApiTokens,
    private readonly trail: AuditTrail,
  ) {}

  async execute(command: CreateApiTokenCommand, audit: AuditContext): Promise<CreatedToken> {
    const { refused = [], now, ...token } = command;
    if (refused.length === 0) {
      const created = await this.tokens.createToken(token);
      await this.trail.append({
        action: 'token.created',
        context: audit,
        target: { type: 'api_token', id: created.token.id },
        details: {
          name: created.token.name,
          scopes: describePermissions(created.token.permissions),
          expiresAt: created.token.expiresAt.toISOString(),
        },
      });
      return created;
    }
    const problems = [...refused];
    try {
      validateCreateToken(token, now);
    } catch (error) {
      if (!(error instanceof TokenError) || error.code !== 'invalid_request') throw error;
      problems.push(...error.details);
    }
    throw new TokenError('invalid_request', 'The token request is invalid', problems);
  }
}
