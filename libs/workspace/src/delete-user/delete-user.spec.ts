import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryUsers } from '../testing/in-memory-users';
import { DeleteUser } from './delete-user';

describe('DeleteUser', () => {
  it('deletes a user, but never the last active admin', async () => {
    const users = new InMemoryUsers();
    const ada = users.add('ada@example.com', 'admin');
    const max = users.add('max@example.com');
    const remove = new DeleteUser(users);
    await remove.execute({ userId: max.id }, anAuditContext());
    await expect(remove.execute({ userId: ada.id }, anAuditContext())).rejects.toMatchObject({
      code: 'last_admin',
    });
    expect((await users.list()).map((u) => u.email)).toEqual(['ada@example.com']);
  });
});
