import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryFallbackDestinations } from '../testing/in-memory-fallback-destinations';
import { InMemoryReadModel } from '../testing/in-memory-read-model';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { ShowFallbackDestinations } from './show-fallback-destinations';

describe('ShowFallbackDestinations', () => {
  async function setUp() {
    const fallbacks = new InMemoryFallbackDestinations();
    const providers = new InMemoryWebhookProviders();
    const readModel = new InMemoryReadModel();
    readModel.addDetection('det-1');
    const live = providers.add('Paging');
    const down = providers.add('Down');
    await providers.disable(down.id, 'Failing', anAuditContext());
    await fallbacks.setGlobal({ recipients: 'soc@example.com' }, anAuditContext());
    const show = new ShowFallbackDestinations(fallbacks, providers, readModel);
    return { show, fallbacks, live };
  }

  it('shows the global destination and offers only enabled providers', async () => {
    const { show, live } = await setUp();
    const overview = await show.execute();
    expect(overview.global?.recipients).toEqual(['soc@example.com']);
    expect(overview.detection).toBeNull();
    expect(overview.providers.map((p) => p.id)).toEqual([live.id]);
  });

  it("shows a detection's own destination beside the global one", async () => {
    const { show, fallbacks, live } = await setUp();
    await fallbacks.setForDetection('det-1', { providerId: live.id }, anAuditContext());
    const overview = await show.execute({ detectionId: 'det-1' });
    expect(overview.detection?.providerId).toBe(live.id);
    expect(overview.detectionName).toBe('Detection det-1');
    expect(overview.global).not.toBeNull();
  });

  it('refuses an unknown detection as not found', async () => {
    const { show } = await setUp();
    await expect(show.execute({ detectionId: 'nope' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
