import { InMemoryApiTokens } from '../testing/in-memory-api-tokens';
import { FindApiToken } from './find-api-token';

describe('FindApiToken', () => {
  it('finds a token by id, and refuses an unknown one as not found', async () => {
    const tokens = new InMemoryApiTokens();
    const { token } = await tokens.createToken({ name: 'x', permissions: { detection: 'read' } });
    const find = new FindApiToken(tokens);
    const now = new Date();
    await expect(find.execute({ tokenId: token.id, now })).resolves.toMatchObject({ name: 'x' });
    await expect(find.execute({ tokenId: 'token-9', now })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
