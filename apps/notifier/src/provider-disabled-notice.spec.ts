import { HEALTHY, NO_PROVIDER_FILTER } from '@vigil/notification-policy';
import type { WebhookProviderView } from '@vigil/control-plane';
import { providerDisabledNotice } from './provider-disabled-notice';
import type { EmailPayload } from './plan-deliveries';

const PROVIDER: WebhookProviderView = {
  id: '5c0c1684-987b-44b9-8e16-4b75d7514339',
  name: 'Tines <b>prod</b>',
  kind: 'automation',
  destination: 'webhook',
  url: 'https://hooks.example.com',
  filter: NO_PROVIDER_FILTER,
  health: HEALTHY,
  disabled: {
    at: new Date(Date.UTC(2026, 10, 26, 9)),
    reason: '20 deliveries in a row died after their last retry.',
  },
  createdAt: new Date(0),
  rotatedAt: null,
};

describe('providerDisabledNotice', () => {
  it('tells an admin why, what happens meanwhile and where to enable it, escaped in HTML', () => {
    const notice = providerDisabledNotice(
      PROVIDER,
      'Ada@Example.com',
      'https://vigil.example.com/',
    );
    const payload = notice.payload as EmailPayload;
    expect(notice).toMatchObject({ kind: 'notice', channel: 'email', target: 'ada@example.com' });
    expect(payload.subject).toBe('[Vigil] Provider Tines <b>prod</b> was disabled');
    expect(payload.text).toBe(
      [
        'Vigil disabled the provider Tines <b>prod</b> at 2026-11-26 09:00:00 UTC.',
        '20 deliveries in a row died after their last retry.',
        'Until an admin enables it again, its notifications are recorded as skipped, not sent.',
        'Enabling it offers to recover them: every failed or skipped delivery since a time you choose is sent again, in order.',
        '',
        `Review the provider: https://vigil.example.com/settings/integrations/${PROVIDER.id}`,
      ].join('\n'),
    );
    expect(payload.html).not.toContain('<b>prod</b>');
    expect(payload.html).toContain('Tines &lt;b&gt;prod&lt;/b&gt;');
  });

  it('is one email per admin and disabling: the same disabling gives the same id', () => {
    const first = providerDisabledNotice(PROVIDER, 'ada@example.com', 'https://vigil.example.com');
    expect(
      providerDisabledNotice(PROVIDER, 'ADA@example.com', 'https://vigil.example.com').id,
    ).toBe(first.id);
    const later = {
      ...PROVIDER,
      disabled: { ...PROVIDER.disabled!, at: new Date(Date.UTC(2026, 10, 27)) },
    };
    expect(
      providerDisabledNotice(later, 'ada@example.com', 'https://vigil.example.com').id,
    ).not.toBe(first.id);
  });
});
