import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryUsers } from '../testing/in-memory-users';
import { AccountLinks } from '../user-links/account-links';
import { InviteUser } from './invite-user';

describe('InviteUser', () => {
  it('adds an invited user and hands the admin a link to the invitation page', async () => {
    const users = new InMemoryUsers();
    const invite = new InviteUser(users, new AccountLinks({ appUrl: 'https://v.example' }));
    const { user, link } = await invite.execute(
      { email: ' Grace@Example.com ', name: 'Grace', role: 'member' },
      anAuditContext(),
    );
    expect(user).toMatchObject({ email: 'grace@example.com', role: 'member' });
    expect(link).toMatchObject({ via: 'shown', email: 'grace@example.com' });
    expect(link.via === 'shown' && link.url).toMatch(/^https:\/\/v\.example\/invitation\/\S{43}$/);
    expect((await users.list())[0].status).toBe('invited');
    expect(users.audited).toEqual([
      { action: 'user.invited', userId: user.id, context: anAuditContext() },
    ]);
  });

  it('refuses a taken email and a bad role, and adds no one', async () => {
    const users = new InMemoryUsers();
    users.add('grace@example.com');
    const invite = new InviteUser(users, new AccountLinks({ appUrl: 'https://v.example' }));
    await expect(
      invite.execute({ email: 'grace@example.com', name: 'G', role: 'member' }, anAuditContext()),
    ).rejects.toMatchObject({ code: 'email_taken' });
    await expect(
      invite.execute({ email: 'new@example.com', name: 'N', role: 'owner' }, anAuditContext()),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [{ field: 'role' }] });
    expect(users.users).toHaveLength(1);
  });
});
