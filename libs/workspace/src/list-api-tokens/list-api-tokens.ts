import { type ApiTokenView } from '@vigil/control-plane';
import { type ApiTokens } from '../ports/api-tokens';

/** The API keys list (SPEC.md §5): every token not deleted, with its state as of `now`. */
export class ListApiTokens {
  constructor(private readonly tokens: ApiTokens) {}

  execute(query: { readonly now: Date }): Promise<ApiTokenView[]> {
    return this.tokens.listTokens(query.now);
  }
}
