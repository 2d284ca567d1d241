import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryUsers } from '../testing/in-memory-users';
import { DisableUser } from './disable-user';

describe('DisableUser', () => {
  it('disables a user, but never the last active admin', async () => {
    const users = new InMemoryUsers();
    const ada = users.add('ada@example.com', 'admin');
    const max = users.add('max@example.com');
    const disable = new DisableUser(users);
    await expect(disable.execute({ userId: max.id }, anAuditContext())).resolves.toMatchObject({
      disabledAt: users.now,
    });
    await expect(disable.execute({ userId: ada.id }, anAuditContext())).rejects.toMatchObject({
      code: 'last_admin',
    });
    expect((await users.list()).map((u) => u.status)).toEqual(['active', 'disabled']);
    expect(users.audited.map((e) => [e.action, e.userId])).toEqual([['user.disabled', max.id]]);
  });
});
