import { TokenError, type AuditContext } from '@vigil/control-plane';
import { type ApiTokens } from '../ports/api-tokens';
import { type AuditTrail } from '../ports/audit-trail';

/**
 * Deletes an API token (SPEC.md §3.1): its next request is rejected. An unknown or already
 * deleted token is a TokenError `not_found`. The audit event, with the token's name, is appended
 * right after the deletion (the token store has no transaction to share).
 */
export class DeleteApiToken {
  constructor(
    private readonly tokens: ApiTokens,
    private readonly trail: AuditTrail,
  ) {}

  async execute(command: { readonly tokenId: string }, audit: AuditContext): Promise<void> {
    const token = (await this.tokens.listTokens()).find((t) => t.id === command.tokenId);
    if (token === undefined) {
      throw new TokenError('not_found', `No API token with id ${command.tokenId}`, [
        { field: 'id', message: 'no such token' },
      ]);
    }
    await this.tokens.deleteToken(token.id);
    await this.trail.append({
      action: 'token.deleted',
      context: audit,
      target: { type: 'api_token', id: token.id },
      details: { name: token.name },
    });
  }
}
