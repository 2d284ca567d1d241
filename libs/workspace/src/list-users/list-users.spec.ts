import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryUsers } from '../testing/in-memory-users';
import { ListUsers } from './list-users';

describe('ListUsers', () => {
  it('lists every user with their status, and counts the active admins', async () => {
    const users = new InMemoryUsers();
    const ada = users.add('ada@example.com', 'admin');
    const bo = users.add('bo@example.com', 'admin');
    await users.disable(bo.id, anAuditContext());
    await users.inviteUser(
      { email: 'cy@example.com', name: 'Cy', role: 'member' },
      anAuditContext(),
    );
    const list = await new ListUsers(users).execute();
    expect(list.users.map((u) => [u.email, u.role, u.status])).toEqual([
      [ada.email, 'admin', 'active'],
      [bo.email, 'admin', 'disabled'],
      ['cy@example.com', 'member', 'invited'],
    ]);
    expect(list.activeAdmins).toBe(1);
  });
});
