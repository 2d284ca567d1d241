import {
  type ApiTokenView,
  type CreateTokenCommand,
  type CreatedToken,
} from '@vigil/control-plane';

/** The API tokens of the workspace (ApiTokenService); refusals are TokenErrors. */
export interface ApiTokens {
  createToken(command: CreateTokenCommand): Promise<CreatedToken>;
  /** Every token that is not deleted, its state as of `now`. */
  listTokens(now?: Date): Promise<ApiTokenView[]>;
  deleteToken(id: string): Promise<void>;
}
