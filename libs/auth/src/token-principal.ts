import type { ApiPrincipal } from '@vigil/control-plane';
import type { RequestPrincipal } from '@vigil/ops';

/** Whose token a request carried, for its log line: the token's id, never its value. */
export function tokenPrincipalOf(request: { user?: unknown }): RequestPrincipal {
  const tokenId = (request.user as ApiPrincipal | undefined)?.tokenId;
  return tokenId === undefined ? {} : { tokenId };
}
