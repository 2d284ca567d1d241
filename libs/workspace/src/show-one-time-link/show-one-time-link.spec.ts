import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryUsers } from '../testing/in-memory-users';
import { ShowOneTimeLink } from './show-one-time-link';

describe('ShowOneTimeLink', () => {
  it('says whom a live link is for, and refuses one of the other kind or expired', async () => {
    const users = new InMemoryUsers();
    const { link } = await users.inviteUser(
      { email: 'grace@example.com', name: 'Grace', role: 'member' },
      anAuditContext(),
    );
    const show = new ShowOneTimeLink(users);
    await expect(show.execute({ token: link.token, purpose: 'invitation' })).resolves.toEqual({
      purpose: 'invitation',
      email: 'grace@example.com',
      name: 'Grace',
      expiresAt: link.expiresAt,
    });
    await expect(
      show.execute({ token: link.token, purpose: 'password_reset' }),
    ).rejects.toMatchObject({ code: 'reset_link_invalid' });
    users.now = link.expiresAt;
    await expect(show.execute({ token: link.token, purpose: 'invitation' })).rejects.toMatchObject({
      code: 'reset_link_expired',
    });
  });
});
