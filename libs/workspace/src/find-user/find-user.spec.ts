import { InMemoryUsers } from '../testing/in-memory-users';
import { FindUser } from './find-user';

describe('FindUser', () => {
  it('finds a user by id, and refuses an unknown one', async () => {
    const users = new InMemoryUsers();
    const ada = users.add('ada@example.com', 'admin');
    const find = new FindUser(users);
    await expect(find.execute({ userId: ada.id })).resolves.toMatchObject({
      email: 'ada@example.com',
      status: 'active',
    });
    await expect(find.execute({ userId: 'nobody' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
