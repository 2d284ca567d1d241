import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryUsers } from '../testing/in-memory-users';
import { EnableUser } from './enable-user';

describe('EnableUser', () => {
  it('lets a disabled user back in, and refuses an unknown one', async () => {
    const users = new InMemoryUsers();
    const max = users.add('max@example.com');
    await users.disable(max.id, anAuditContext());
    const enable = new EnableUser(users);
    await expect(enable.execute({ userId: max.id }, anAuditContext())).resolves.toMatchObject({
      disabledAt: null,
    });
    await expect(enable.execute({ userId: 'nobody' }, anAuditContext())).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(users.audited.map((e) => e.action)).toEqual(['user.disabled', 'user.enabled']);
  });
});
