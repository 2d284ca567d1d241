import { InMemoryDeliveryLog } from '../testing/in-memory-delivery-log';
import { InMemoryReadModel } from '../testing/in-memory-read-model';
import { InMemorySettingsStore } from '../testing/in-memory-settings-store';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { EVENTS_PER_PAGE, ShowDetection, USERS_PER_PAGE } from './show-detection';

function setUp() {
  const readModel = new InMemoryReadModel();
  readModel.addDetection('det-1', 30);
  const settings = new InMemorySettingsStore();
  const providers = new InMemoryWebhookProviders();
  const deliveries = new InMemoryDeliveryLog();
  const show = new ShowDetection(readModel, settings, providers, deliveries);
  return { readModel, settings, providers, deliveries, show };
}

describe('ShowDetection', () => {
  it('shows the first pages of events and users, with cursors to the next', async () => {
    const { show } = setUp();
    const overview = await show.execute({ detectionId: 'det-1' });
    expect(overview.detection.id).toBe('det-1');
    expect(overview.events.items).toHaveLength(EVENTS_PER_PAGE);
    expect(overview.users.items).toHaveLength(USERS_PER_PAGE);
    expect(overview.events).toMatchObject({ query: '', error: undefined });

    const next = await show.execute({
      detectionId: 'det-1',
      eventsCursor: overview.events.nextCursor!,
      usersCursor: overview.users.nextCursor!,
    });
    expect(next.events.items).toHaveLength(30 - EVENTS_PER_PAGE);
    expect(next.events.nextCursor).toBeNull();
    expect(next.users.items).toHaveLength(USERS_PER_PAGE);
    expect(next.events.cursor).toBe(overview.events.nextCursor);
  });

  it('says why a filter was refused instead of searching', async () => {
    const { readModel, show } = setUp();
    const overview = await show.execute({ detectionId: 'det-1', query: 'risk_score >' });
    expect(overview.events.items).toEqual([]);
    expect(overview.events.error).toBe(
      'expected a number after `risk_score >` at column 13, found end of query',
    );
    expect(readModel.lastSearch).toBeUndefined();
  });

  it('lists deliveries with their target’s name and last attempt in one read', async () => {
    const { providers, deliveries, show } = setUp();
    const soar = providers.add('SOAR');
    const webhook = deliveries.add({ id: 'd-1', subjectId: 'det-1', target: soar.id });
    const email = deliveries.add({
      id: 'd-2',
      subjectId: 'det-1',
      channel: 'email',
      target: 'soc@example.com',
    });
    const gone = deliveries.add({ id: 'd-3', subjectId: 'det-1', target: 'deleted-provider' });
    deliveries.add({ id: 'd-4', subjectId: 'det-2' });
    const attempt = {
      attempt: 1,
      attemptedAt: new Date(0),
      statusCode: 502,
      latencyMs: 1,
      error: null,
    };
    deliveries.attempts.set(webhook.id, [attempt]);

    const overview = await show.execute({ detectionId: 'det-1' });
    expect(overview.deliveries).toEqual([
      { delivery: gone, targetName: null, lastAttempt: null },
      { delivery: email, targetName: 'soc@example.com', lastAttempt: null },
      { delivery: webhook, targetName: 'SOAR', lastAttempt: attempt },
    ]);
  });

  it('refuses an unknown detection and a cursor no page issued', async () => {
    const { show } = setUp();
    await expect(show.execute({ detectionId: 'det-typo' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      show.execute({ detectionId: 'det-1', eventsCursor: 'nonsense' }),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
  });
});
