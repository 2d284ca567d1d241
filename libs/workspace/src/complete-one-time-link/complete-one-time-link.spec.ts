import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryUsers } from '../testing/in-memory-users';
import { CompleteOneTimeLink } from './complete-one-time-link';

async function aResetLink() {
  const users = new InMemoryUsers();
  const max = users.add('max@example.com');
  const link = await users.issuePasswordReset(max.id, anAuditContext());
  return { users, max, link, complete: new CompleteOneTimeLink(users) };
}

const context = { address: '203.0.113.9', requestId: 'req-9' };

describe('CompleteOneTimeLink', () => {
  it('sets the password once, audited under the user, then refuses the used link', async () => {
    const { users, max, link, complete } = await aResetLink();
    const command = {
      token: link.token,
      purpose: 'password_reset' as const,
      password: 'a brand new password',
      confirmation: 'a brand new password',
    };
    await expect(complete.execute(command, context)).resolves.toMatchObject({ id: max.id });
    expect(users.users[0].password).toBe('a brand new password');
    expect(users.audited.at(-1)).toEqual({
      action: 'user.password_reset',
      userId: max.id,
      context: { ...context, actor: { type: 'user', id: max.id, label: max.email } },
    });
    await expect(complete.execute(command, context)).rejects.toMatchObject({
      code: 'reset_link_used',
    });
  });

  it('refuses a confirmation that differs, a short password and an invitation page, keeping the link', async () => {
    const { users, link, complete } = await aResetLink();
    const base = { token: link.token, purpose: 'password_reset' as const };
    await expect(
      complete.execute(
        { ...base, password: 'a brand new password', confirmation: 'a brand new pasword' },
        context,
      ),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [{ field: 'confirmation' }] });
    await expect(
      complete.execute({ ...base, password: 'short', confirmation: 'short' }, context),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [{ field: 'password' }] });
    await expect(
      complete.execute(
        {
          ...base,
          purpose: 'invitation',
          password: 'a brand new password',
          confirmation: 'a brand new password',
        },
        context,
      ),
    ).rejects.toMatchObject({ code: 'reset_link_invalid' });
    expect(users.links.get(link.token)?.used).toBe(false);
    expect(users.users[0].password).toBe('a long enough password');
  });
});
