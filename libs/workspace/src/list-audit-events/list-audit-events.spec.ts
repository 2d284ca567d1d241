import { InMemoryAuditTrail, anAuditContext } from '../testing/in-memory-audit-trail';
import { AUDIT_EVENTS_PER_PAGE, ListAuditEvents } from './list-audit-events';

describe('ListAuditEvents', () => {
  it('pages the events newest first, narrowed by the filter', async () => {
    const trail = new InMemoryAuditTrail();
    for (let i = 0; i < AUDIT_EVENTS_PER_PAGE + 5; i++) {
      await trail.append({
        action: i % 2 === 0 ? 'user.disabled' : 'token.created',
        context: anAuditContext(),
        target: { type: 'user', id: `user-${i}` },
      });
    }
    const list = new ListAuditEvents(trail);
    const first = await list.execute({});
    expect(first.events).toHaveLength(AUDIT_EVENTS_PER_PAGE);
    expect(first.events[0].target).toEqual({
      type: 'user',
      id: `user-${AUDIT_EVENTS_PER_PAGE + 4}`,
    });
    const second = await list.execute({ cursor: first.nextCursor! });
    expect(second.events).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    const users = await list.execute({ action: 'user.' });
    expect(users.events.every((e) => e.action === 'user.disabled')).toBe(true);
    await expect(list.execute({ action: 'DROP TABLE' })).rejects.toMatchObject({
      field: 'action',
    });
  });
});
