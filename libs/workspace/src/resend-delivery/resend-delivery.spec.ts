import { InMemoryDeliveryLog } from '../testing/in-memory-delivery-log';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { ResendDelivery } from './resend-delivery';
import { anAuditContext } from '../testing/in-memory-audit-trail';

function setUp() {
  const providers = new InMemoryWebhookProviders();
  const soar = providers.add('SOAR');
  const deliveries = new InMemoryDeliveryLog();
  const dead = deliveries.add({ id: 'd-1', target: soar.id, subjectId: 'det-1', status: 'dead' });
  return { providers, soar, deliveries, dead, resend: new ResendDelivery(deliveries, providers) };
}

describe('ResendDelivery', () => {
  it('resends a dead delivery of the detection, once', async () => {
    const { deliveries, dead, resend } = setUp();
    const command = { deliveryId: dead.id, owner: { detectionId: 'det-1' } };
    await expect(resend.execute(command, anAuditContext())).resolves.toBe('resent');
    expect((await deliveries.find(dead.id))?.status).toBe('pending');
    await expect(resend.execute(command, anAuditContext())).resolves.toBe('already_resent');
  });

  it('resends a dead delivery to the provider', async () => {
    const { soar, dead, resend } = setUp();
    await expect(
      resend.execute({ deliveryId: dead.id, owner: { providerId: soar.id } }, anAuditContext()),
    ).resolves.toBe('resent');
  });

  it('does not find a delivery of another detection or provider, or of a provider gone', async () => {
    const { providers, deliveries, dead, resend } = setUp();
    const other = providers.add('Other');
    for (const owner of [{ detectionId: 'det-2' }, { providerId: other.id }, { providerId: 'x' }]) {
      await expect(
        resend.execute({ deliveryId: dead.id, owner }, anAuditContext()),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
    }
    const digest = deliveries.add({
      id: 'd-2',
      kind: 'digest',
      subjectId: 'det-1',
      status: 'dead',
    });
    await expect(
      resend.execute({ deliveryId: digest.id, owner: { detectionId: 'det-1' } }, anAuditContext()),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect((await deliveries.find(dead.id))?.status).toBe('dead');
  });
  it('records the resend in the audit log, and nothing when it was already resent', async () => {
    const { deliveries, dead, resend } = setUp();
    const command = { deliveryId: dead.id, owner: { detectionId: 'det-1' } };
    await resend.execute(command, anAuditContext());
    await resend.execute(command, anAuditContext());
    expect(deliveries.audited).toEqual([
      {
        action: 'delivery.resent',
        context: anAuditContext(),
        target: { type: 'delivery', id: dead.id },
        details: { kind: 'detection', channel: 'webhook', target: dead.target, subjectId: 'det-1' },
      },
    ]);
  });
});
