import { InMemoryApiTokens } from '../testing/in-memory-api-tokens';
import { ListApiTokens } from './list-api-tokens';

describe('ListApiTokens', () => {
  it('shows each token’s state as of the time asked', async () => {
    const tokens = new InMemoryApiTokens(new Date('2026-03-01T00:00:00Z'));
    await tokens.createToken({ name: 'x', permissions: { detection: 'read' }, expiresInDays: 30 });
    const list = new ListApiTokens(tokens);
    expect(
      (await list.execute({ now: new Date('2026-03-02T00:00:00Z') })).map((t) => t.state),
    ).toEqual(['active']);
    expect(
      (await list.execute({ now: new Date('2026-04-01T00:00:00Z') })).map((t) => t.state),
    ).toEqual(['expired']);
  });
});
