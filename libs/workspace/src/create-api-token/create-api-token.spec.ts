import { TokenError } from '@vigil/control-plane';
import { InMemoryApiTokens } from '../testing/in-memory-api-tokens';
import { InMemoryAuditTrail, anAuditContext } from '../testing/in-memory-audit-trail';
import { CreateApiToken } from './create-api-token';

const NOW = new Date('2026-03-01T00:00:00Z');

describe('CreateApiToken', () => {
  it('creates a token and returns its value once', async () => {
    const tokens = new InMemoryApiTokens(NOW);
    const created = await new CreateApiToken(tokens, new InMemoryAuditTrail()).execute(
      {
        name: ' SIEM ',
        permissions: { detection: 'read' },
        expiresInDays: 30,
        createdBy: 'ada@example.com',
        now: NOW,
      },
      anAuditContext(),
    );
    expect(created.value).toMatch(/^vgk1-/);
    expect(created.token).toMatchObject({ name: 'SIEM', createdBy: 'ada@example.com' });
    expect(created.token.expiresAt).toEqual(new Date('2026-03-31T00:00:00Z'));
    expect(tokens.tokens).toHaveLength(1);
  });

  it('reports the caller’s problems with the token rules’ own, and creates nothing', async () => {
    const tokens = new InMemoryApiTokens(NOW);
    const refused = { field: 'expiresInDays', message: 'must be one of the offered choices' };
    const error = await new CreateApiToken(tokens, new InMemoryAuditTrail())
      .execute({ name: '', permissions: {}, refused: [refused], now: NOW }, anAuditContext())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect((error as TokenError).details).toEqual([
      refused,
      { field: 'name', message: 'is required' },
      { field: 'permissions', message: 'at least one scope must be above None' },
    ]);
    expect(tokens.tokens).toEqual([]);
  });

  it('creates nothing for a caller’s problem even when the rest is valid', async () => {
    const tokens = new InMemoryApiTokens(NOW);
    const refused = { field: 'expiresInDays', message: 'must be one of the offered choices' };
    await expect(
      new CreateApiToken(tokens, new InMemoryAuditTrail()).execute(
        {
          name: 'SIEM',
          permissions: { detection: 'read' },
          refused: [refused],
          now: NOW,
        },
        anAuditContext(),
      ),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [refused] });
    expect(tokens.tokens).toEqual([]);
  });

  it('records who created which token, with its scopes and expiry but never its value', async () => {
    const tokens = new InMemoryApiTokens(NOW);
    const trail = new InMemoryAuditTrail();
    const created = await new CreateApiToken(tokens, trail).execute(
      { name: 'SIEM', permissions: { detection: 'read' }, expiresInDays: 30, now: NOW },
      anAuditContext(),
    );
    expect(trail.events).toEqual([
      {
        action: 'token.created',
        context: anAuditContext(),
        target: { type: 'api_token', id: created.token.id },
        details: {
          name: 'SIEM',
          scopes: ['detection:read'],
          expiresAt: '2026-03-31T00:00:00.000Z',
        },
      },
    ]);
    expect(JSON.stringify(trail.events)).not.toContain(created.value);
  });
});
