import { type WebhookProviderView } from '@vigil/control-plane';
import { type WebhookProviders } from '../ports/webhook-providers';
import { WorkspaceError } from '../workspace-error';

/** An enrolled provider; a deleted or unknown one is a WorkspaceError `not_found`. */
export async function enrolledProvider(
  providers: Pick<WebhookProviders, 'list'>,
  providerId: string,
): Promise<WebhookProviderView> {
  const provider = (await providers.list()).find((p) => p.id === providerId);
  if (provider === undefined) throw new WorkspaceError('not_found', 'No such webhook provider');
  return provider;
}
