import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { WebhookProviderService } from './webhook-provider.service';
import { PUBLIC_TARGETS_ONLY } from './webhook-target-guard';

let sql: SqlClient;

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  await runMigrations(sql);
});
afterAll(() => sql.close());

const allowingPrivate = () =>
  new WebhookProviderService(sql, { policy: { allowPrivate: true, allowlist: [] } });

describe('WebhookProviderService on PostgreSQL', () => {
  it('shows a Standard Webhooks secret once at enrollment and never lists it', async () => {
    const service = allowingPrivate();
    const { provider, secret } = await service.enroll({
      name: '  Tines  ',
      kind: 'automation',
      url: 'http://127.0.0.1:9/hook',
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(provider).toEqual({
      id: expect.any(String),
      name: 'Tines',
      kind: 'automation',
      destination: 'webhook',
      url: 'http://127.0.0.1:9/hook',
      filter: { subjects: 'all', minRiskScore: null, sources: [] },
      health: { failingSince: null, deadInARow: 0 },
      createdAt: expect.any(Date),
      rotatedAt: null,
    });
    const listed = await service.list();
    expect(listed.find((p) => p.id === provider.id)).toEqual(provider);
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect((await service.targets([provider.id])).get(provider.id)?.secret).toBe(secret);
  });

  it('rotates the secret: the new one is shown once and used from then on', async () => {
    const service = allowingPrivate();
    const { provider, secret } = await service.enroll({
      name: 'Rotating',
      kind: 'custom',
      url: 'http://127.0.0.1:9/r',
    });
    const rotated = await service.rotateSecret(provider.id);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.provider.rotatedAt).toBeInstanceOf(Date);
    expect((await service.targets([provider.id])).get(provider.id)?.secret).toBe(rotated.secret);
  });

  it('deletes a provider: it leaves the list and is flagged for the notifier', async () => {
    const service = allowingPrivate();
    const { provider } = await service.enroll({
      name: 'Short-lived',
      kind: 'custom',
      url: 'http://127.0.0.1:9/d',
    });
    await service.delete(provider.id);
    expect((await service.list()).map((p) => p.id)).not.toContain(provider.id);
    expect((await service.targets([provider.id])).get(provider.id)?.deleted).toBe(true);
    await expect(service.delete(provider.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.rotateSecret('not-a-uuid')).rejects.toMatchObject({ code: 'not_found' });
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost:8080/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.8/hook',
    'http://[::1]/hook',
    'ftp://example.com/hook',
  ])('refuses to enroll %s when private targets are not allowed', async (url) => {
    const service = new WebhookProviderService(sql, { policy: PUBLIC_TARGETS_ONLY });
    await expect(service.enroll({ name: 'Internal', kind: 'custom', url })).rejects.toMatchObject({
      code: 'target_refused',
      field: 'url',
    });
  });

  it('refuses an invalid name or kind', async () => {
    const service = allowingPrivate();
    await expect(
      service.enroll({ name: ' ', kind: 'custom', url: 'http://127.0.0.1/' }),
    ).rejects.toMatchObject({ code: 'invalid_request', field: 'name' });
    await expect(
      service.enroll({ name: 'x', kind: 'zapier' as never, url: 'http://127.0.0.1/' }),
    ).rejects.toMatchObject({ code: 'invalid_request', field: 'kind' });
  });
});
