import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryUsers } from '../testing/in-memory-users';
import { CreateUser } from './create-user';

describe('CreateUser', () => {
  it('creates a user once per email', async () => {
    const users = new InMemoryUsers();
    const create = new CreateUser(users);
    const command = {
      email: 'max@example.com',
      name: 'Max',
      role: 'member' as const,
      password: 'a long enough password',
    };
    await expect(create.execute(command)).resolves.toMatchObject({ email: 'max@example.com' });
    await expect(create.execute(command)).rejects.toMatchObject({ code: 'email_taken' });
  });

  it('records who created the user', async () => {
    const users = new InMemoryUsers();
    const created = await new CreateUser(users).execute(
      { email: 'max@example.com', name: 'Max', role: 'member', password: 'a long enough password' },
      anAuditContext(),
    );
    expect(users.audited).toEqual([
      { action: 'user.created', userId: created.id, context: anAuditContext() },
    ]);
  });
});
