import { Webhook } from 'standardwebhooks';
import { operatorActor } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { SecretBox } from '../secrets/secret-box';
import {
  assertKeyOpensStoredSecrets,
  resealStoredSecrets,
  sealPlaintextSecrets,
} from '../secrets/stored-secrets';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { WebhookProviderService } from './webhook-provider.service';

const HOUR = 60 * 60 * 1000;
const policy = { allowPrivate: true, allowlist: [] };
let sql: SqlClient;
let now: Date;
const box = new SecretBox(Buffer.alloc(32, 5));

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  await runMigrations(sql);
});
afterAll(() => sql.close());
beforeEach(() => {
  now = new Date();
});

/** The service with the key, or (null) as a writer not yet given one. */
const service = (secrets: SecretBox | null = box) =>
  new WebhookProviderService(sql, { policy, secrets: secrets ?? undefined, clock: () => now });

async function storedSecrets(id: string) {
  const { rows } = await sql.query<{ secret: string; previous_secret: string | null }>(
    'SELECT secret, previous_secret FROM webhook_providers WHERE id = $1',
    [id],
  );
  return rows[0];
}

function enroll(providers = service()) {
  return providers.enroll({ name: 'Receiver', kind: 'custom', url: 'http://127.0.0.1:9/h' });
}

describe('webhook secrets at rest on PostgreSQL', () => {
  it('stores the secret sealed for its row and opens it for the notifier', async () => {
    const { provider, secret } = await enroll();
    const stored = await storedSecrets(provider.id);
    expect(stored.secret).toMatch(new RegExp(`^v1:${box.keyId}:`));
    expect(stored.secret).not.toContain(secret.slice(6));
    expect((await service().targets([provider.id])).get(provider.id)?.secret).toBe(secret);
    // Without the key the service cannot read it, and says why.
    await expect(service(null).targets([provider.id])).rejects.toThrow(
      `The secret of webhook provider ${provider.id} is sealed, and this process has no secrets key`,
    );
  });

  it('refuses a sealed secret copied into another provider’s row', async () => {
    const a = await enroll();
    const b = await enroll();
    await sql.query(
      'UPDATE webhook_providers SET secret = (SELECT secret FROM webhook_providers WHERE id = $1) WHERE id = $2',
      [a.provider.id, b.provider.id],
    );
    await expect(service().targets([b.provider.id])).rejects.toThrow(/does not authenticate/);
    // A key rotation would refuse the whole table over this row: remove it for the next tests.
    await sql.query('DELETE FROM webhook_providers WHERE id = $1', [b.provider.id]);
  });

  it('keeps the replaced secret signing for the overlap, then only the new one', async () => {
    const { provider, secret: old } = await enroll();
    const rotated = await service().rotateSecret(provider.id, {}, { actor: operatorActor('ops') });
    expect(rotated.provider.previousSecretValidUntil).toEqual(new Date(now.getTime() + 24 * HOUR));
    expect(
      (await service().list()).find((p) => p.id === provider.id)?.previousSecretValidUntil,
    ).toEqual(new Date(now.getTime() + 24 * HOUR));
    const stored = await storedSecrets(provider.id);
    expect(stored.previous_secret).toMatch(/^v1:/);
    const during = (await service().targets([provider.id])).get(provider.id)!;
    expect(during).toMatchObject({ secret: rotated.secret, previousSecret: old });

    now = new Date(now.getTime() + 24 * HOUR + 1);
    const after = (await service().targets([provider.id])).get(provider.id)!;
    expect(after.secret).toBe(rotated.secret);
    expect(after.previousSecret).toBeUndefined();
    const listed = (await service().list()).find((p) => p.id === provider.id)!;
    expect(listed.previousSecretValidUntil).toBeUndefined();
    const { events } = await new SqlAuditLog(sql).list({ targetId: provider.id });
    expect(events.map((e) => e.action)).toEqual(['provider.secret_rotated']);
    expect(JSON.stringify(events)).not.toContain(rotated.secret);
  });

  it('drops the replaced secret at once with an overlap of 0', async () => {
    const { provider } = await enroll();
    const rotated = await service().rotateSecret(provider.id, { overlapMs: 0 });
    expect(rotated.provider.previousSecretValidUntil).toBeUndefined();
    expect((await storedSecrets(provider.id)).previous_secret).toBeNull();
    expect(
      (await service().targets([provider.id])).get(provider.id)?.previousSecret,
    ).toBeUndefined();
  });

  it('signs so that the official verifier accepts either secret during the overlap', async () => {
    const { provider, secret: old } = await enroll();
    const { secret: fresh } = await service().rotateSecret(provider.id);
    const target = (await service().targets([provider.id])).get(provider.id)!;
    const timestamp = new Date();
    const body = '{"hello":"world"}';
    const header = [target.secret, target.previousSecret!]
      .map((s) => new Webhook(s).sign('msg_1', timestamp, body))
      .join(' ');
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': header,
    };
    expect(new Webhook(old).verify(body, headers)).toEqual({ hello: 'world' });
    expect(new Webhook(fresh).verify(body, headers)).toEqual({ hello: 'world' });
  });

  it('seals plaintext rows once, checks the key at start-up, and moves every secret to a new key', async () => {
    const legacy = await enroll(service(null));
    expect((await storedSecrets(legacy.provider.id)).secret).toBe(legacy.secret);
    await service(null).rotateSecret(legacy.provider.id);
    const sealed = await sealPlaintextSecrets(sql, box);
    expect(sealed).toBeGreaterThanOrEqual(2);
    expect(await sealPlaintextSecrets(sql, box)).toBe(0);
    const { rows } = await sql.query<{ n: string }>(
      "SELECT count(*) AS n FROM webhook_providers WHERE secret LIKE 'whsec%' OR previous_secret LIKE 'whsec%'",
    );
    expect(rows[0].n).toBe('0');
    await assertKeyOpensStoredSecrets(sql, box);

    const next = new SecretBox(Buffer.alloc(32, 6));
    await expect(assertKeyOpensStoredSecrets(sql, next)).rejects.toThrow(
      `Stored webhook secrets are sealed under key ${box.keyId}, but the configured secrets key is ${next.keyId}`,
    );
    const before = await service().targets([legacy.provider.id]);
    const report = await resealStoredSecrets(sql, box, next);
    expect(report.resealed).toBeGreaterThanOrEqual(2);
    await assertKeyOpensStoredSecrets(sql, next);
    expect(await service(next).targets([legacy.provider.id])).toEqual(before);
    await expect(resealStoredSecrets(sql, next, next)).rejects.toThrow(/is the configured one/);
    // A second run (configuration not yet changed) finds everything under the new key already.
    expect(await resealStoredSecrets(sql, box, next)).toMatchObject({ resealed: 0 });
  });
});
