import { InMemoryApiTokens } from '../testing/in-memory-api-tokens';
import { InMemoryAuditTrail, anAuditContext } from '../testing/in-memory-audit-trail';
import { DeleteApiToken } from './delete-api-token';

describe('DeleteApiToken', () => {
  it('deletes the token, and refuses one that is gone', async () => {
    const tokens = new InMemoryApiTokens();
    const { token } = await tokens.createToken({ name: 'x', permissions: { detection: 'read' } });
    const deleteToken = new DeleteApiToken(tokens, new InMemoryAuditTrail());
    await deleteToken.execute({ tokenId: token.id }, anAuditContext());
    expect(tokens.tokens).toEqual([]);
    await expect(
      deleteToken.execute({ tokenId: token.id }, anAuditContext()),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('records who deleted which token, by name, and nothing for a refused deletion', async () => {
    const tokens = new InMemoryApiTokens();
    const trail = new InMemoryAuditTrail();
    const { token } = await tokens.createToken({
      name: 'SIEM',
      permissions: { detection: 'read' },
    });
    const deleteToken = new DeleteApiToken(tokens, trail);
    await deleteToken.execute({ tokenId: token.id }, anAuditContext());
    await deleteToken.execute({ tokenId: token.id }, anAuditContext()).catch(() => undefined);
    expect(trail.events).toEqual([
      {
        action: 'token.deleted',
        context: anAuditContext(),
        target: { type: 'api_token', id: token.id },
        details: { name: 'SIEM' },
      },
    ]);
  });
});
