import { type ApiTokenView } from '@vigil/control-plane';
import { type ApiTokens } from '../ports/api-tokens';
import { WorkspaceError } from '../workspace-error';

/** One API token that is not deleted, as the list shows it (before deleting it, say). */
export class FindApiToken {
  constructor(private readonly tokens: ApiTokens) {}

  async execute(query: { readonly tokenId: string; readonly now: Date }): Promise<ApiTokenView> {
    const token = (await this.tokens.listTokens(query.now)).find((t) => t.id === query.tokenId);
    if (token === undefined) throw new WorkspaceError('not_found', 'No such API key');
    return token;
  }
}
