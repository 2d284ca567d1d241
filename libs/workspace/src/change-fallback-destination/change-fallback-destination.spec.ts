import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryFallbackDestinations } from '../testing/in-memory-fallback-destinations';
import { InMemoryReadModel } from '../testing/in-memory-read-model';
import { ChangeFallbackDestination } from './change-fallback-destination';

describe('ChangeFallbackDestination', () => {
  function setUp() {
    const fallbacks = new InMemoryFallbackDestinations();
    const readModel = new InMemoryReadModel();
    readModel.addDetection('det-1');
    return { fallbacks, change: new ChangeFallbackDestination(fallbacks, readModel) };
  }

  it('sets the global destination, audited', async () => {
    const { fallbacks, change } = setUp();
    const set = await change.execute(
      { destination: { providerId: 'provider-1', recipients: 'soc@example.com' } },
      anAuditContext(),
    );
    expect(set).toMatchObject({ scope: '*', recipients: ['soc@example.com'] });
    expect(fallbacks.audited).toEqual([{ scope: '*', audit: anAuditContext() }]);
  });

  it("sets a detection's own destination, and removes it when nothing is entered", async () => {
    const { fallbacks, change } = setUp();
    await change.execute(
      { detectionId: 'det-1', destination: { recipients: ['ir@example.com'] } },
      anAuditContext(),
    );
    expect(fallbacks.destinations.get('det-1')?.recipients).toEqual(['ir@example.com']);
    const removed = await change.execute(
      { detectionId: 'det-1', destination: { providerId: '', recipients: '' } },
      anAuditContext(),
    );
    expect(removed).toBeNull();
    expect(fallbacks.destinations.has('det-1')).toBe(false);
  });

  it('refuses a bad recipient on its field and an unknown detection as not found', async () => {
    const { fallbacks, change } = setUp();
    await expect(
      change.execute({ destination: { recipients: 'soc' } }, anAuditContext()),
    ).rejects.toMatchObject({ code: 'invalid_request', field: 'recipients' });
    await expect(
      change.execute({ detectionId: 'nope', destination: {} }, anAuditContext()),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(fallbacks.audited).toEqual([]);
  });
});
