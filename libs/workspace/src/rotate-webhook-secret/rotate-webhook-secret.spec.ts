import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { RotateWebhookSecret } from './rotate-webhook-secret';
import { anAuditContext } from '../testing/in-memory-audit-trail';

describe('RotateWebhookSecret', () => {
  it('returns a new secret for an enrolled provider, and refuses an unknown one', async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    const rotate = new RotateWebhookSecret(providers);
    const rotated = await rotate.execute({ providerId: soar.id }, anAuditContext());
    expect(rotated.provider.rotatedAt).not.toBeNull();
    expect(rotated.secret).toMatch(/^whsec_/);
    await expect(rotate.execute({ providerId: 'gone' }, anAuditContext())).rejects.toMatchObject({
      code: 'not_found',
    });
  });
  it('keeps the replaced secret for the overlap unless told to stop it at once, audited either way', async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    const rotate = new RotateWebhookSecret(providers);
    await rotate.execute({ providerId: soar.id }, anAuditContext());
    await rotate.execute({ providerId: soar.id, stopPreviousNow: true }, anAuditContext());
    expect(providers.audited).toEqual([
      { action: 'provider.secret_rotated', id: soar.id, audit: anAuditContext() },
      { action: 'provider.secret_rotated', id: soar.id, audit: anAuditContext(), overlapMs: 0 },
    ]);
  });
});
