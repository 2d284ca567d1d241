import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryUsers } from '../testing/in-memory-users';
import { AccountLinks } from '../user-links/account-links';
import { ResetUserPassword } from './reset-user-password';

describe('ResetUserPassword', () => {
  it('hands the admin a reset link, and refuses a disabled user', async () => {
    const users = new InMemoryUsers();
    const max = users.add('max@example.com');
    const reset = new ResetUserPassword(users, new AccountLinks({ appUrl: 'https://v.example' }));
    const link = await reset.execute({ userId: max.id }, anAuditContext());
    expect(link).toMatchObject({ via: 'shown', email: 'max@example.com' });
    expect(link.via === 'shown' && link.url).toMatch(/^https:\/\/v\.example\/reset-password\//);
    await users.disable(max.id, anAuditContext());
    await expect(reset.execute({ userId: max.id }, anAuditContext())).rejects.toMatchObject({
      code: 'user_disabled',
    });
    expect(users.audited.map((e) => e.action)).toEqual([
      'user.password_reset_issued',
      'user.disabled',
    ]);
  });
});
