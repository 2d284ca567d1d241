import { WebhookProviderError } from '@vigil/control-plane';
import { checkProviderForm, providerErrorOf } from './webhook-provider-form';

describe('the webhook provider form', () => {
  it('turns a complete form into an enrollment, trimmed', () => {
    expect(
      checkProviderForm({
        name: ' SOAR ',
        kind: 'automation',
        url: ' https://hooks.example.com/x ',
      }),
    ).toEqual({
      ok: true,
      command: { name: 'SOAR', kind: 'automation', url: 'https://hooks.example.com/x' },
    });
  });

  it('reports every field problem at once', () => {
    expect(checkProviderForm({ name: ' ', kind: 'email', url: 'hooks.example.com' })).toEqual({
      ok: false,
      errors: {
        name: 'Enter a name.',
        kind: 'Choose Automation platform or Custom webhook.',
        url: 'Enter a full URL starting with https:// (or http://).',
      },
    });
  });

  it('explains a refused target next to the URL', () => {
    const refused = new WebhookProviderError(
      'target_refused',
      '127.0.0.1 resolves to 127.0.0.1, a loopback address; webhook targets must be public',
      'url',
    );
    expect(providerErrorOf(refused).url).toBe(
      'Vigil will not send to this URL: 127.0.0.1 resolves to 127.0.0.1, a loopback address; webhook targets must be public.',
    );
  });
});
