import {
  TokenError,
  tokenStateAt,
  validateCreateToken,
  type ApiTokenView,
  type CreateTokenCommand,
  type CreatedToken,
} from '@vigil/control-plane';
import { type ApiTokens } from '../ports/api-tokens';

/** The API tokens of the specs, checked by the token rules as of `now`. */
export class InMemoryApiTokens implements ApiTokens {
  readonly tokens: ApiTokenView[] = [];

  constructor(private readonly now = new Date('2026-03-01T00:00:00Z')) {}

  async createToken(command: CreateTokenCommand): Promise<CreatedToken> {
    const valid = validateCreateToken(command, this.now);
    const token: ApiTokenView = {
      id: `token-${this.tokens.length + 1}`,
      name: valid.name,
      permissions: valid.permissions,
      lastFour: 'abcd',
      createdAt: this.now,
      lastUsedAt: null,
      expiresAt: valid.expiresAt,
      createdBy: valid.createdBy,
      state: 'active',
    };
    this.tokens.push(token);
    return { token, value: `vgk1-value-of-${token.id}` };
  }

  async listTokens(now: Date = this.now): Promise<ApiTokenView[]> {
    return this.tokens.map((t) => ({ ...t, state: tokenStateAt(t, now) }));
  }

  async deleteToken(id: string): Promise<void> {
    const at = this.tokens.findIndex((t) => t.id === id);
    if (at < 0) throw new TokenError('not_found', `No token with id ${id}`);
    this.tokens.splice(at, 1);
  }
}
