import { type Permissions } from '../permissions/permissions';

/** A stored API token, without its hash. */
export interface ApiTokenRecord {
  readonly id: string;
  readonly name: string;
  readonly permissions: Permissions;
  readonly lastFour: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly expiresAt: Date;
  readonly createdBy: string | null;
}

/** State values shown in the token list (SPEC.md §3.1); deleted tokens are not listed. */
export type ApiTokenState = 'active' | 'expired';

export const TOKEN_STATE_LABELS: Readonly<Record<ApiTokenState, string>> = {
  active: 'Active',
  expired: 'Expired',
};

/** A token as the list shows it: never the hash or the value. */
export interface ApiTokenView extends ApiTokenRecord {
  readonly state: ApiTokenState;
}

export function tokenStateAt(token: Pick<ApiTokenRecord, 'expiresAt'>, now: Date): ApiTokenState {
  return token.expiresAt.getTime() > now.getTime() ? 'active' : 'expired';
}

/** Who a valid token authenticates: what a request handler and the scope guard see. */
export interface ApiPrincipal {
  readonly tokenId: string;
  readonly name: string;
  readonly permissions: Permissions;
}

export type AuthenticationFailureCode = 'invalid_token' | 'token_expired';

export type AuthenticationResult =
  | { readonly ok: true; readonly principal: ApiPrincipal }
  | { readonly ok: false; readonly code: AuthenticationFailureCode };
