import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryUsers } from '../testing/in-memory-users';
import { ChangeUserRole } from './change-user-role';

describe('ChangeUserRole', () => {
  it('promotes and demotes, but never the last active admin', async () => {
    const users = new InMemoryUsers();
    const ada = users.add('ada@example.com', 'admin');
    const max = users.add('max@example.com', 'member');
    const change = new ChangeUserRole(users);
    await expect(
      change.execute({ userId: ada.id, role: 'member' }, anAuditContext()),
    ).rejects.toMatchObject({ code: 'last_admin' });
    await change.execute({ userId: max.id, role: 'admin' }, anAuditContext());
    await expect(
      change.execute({ userId: ada.id, role: 'member' }, anAuditContext()),
    ).resolves.toMatchObject({ role: 'member' });
    await expect(
      change.execute({ userId: max.id, role: 'owner' }, anAuditContext()),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    expect(users.audited.map((e) => [e.action, e.userId])).toEqual([
      ['user.role_changed', max.id],
      ['user.role_changed', ada.id],
    ]);
  });
});
