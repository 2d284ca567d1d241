import { DEFAULT_SEVERITY_MAPPING } from '@vigil/destinations';
import { operatorActor } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { SecretBox } from '../secrets/secret-box';
import { resealStoredSecrets } from '../secrets/stored-secrets';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { webhookProviderRefusal } from '../testing/webhook-provider-refusal';
import { WebhookProviderService } from './webhook-provider.service';

const SLACK_URL = 'https://hooks.slack.com/services/T0VIGIL01/B0VIGIL02/vigilTestWebhookSecret24';
const ROUTING_KEY = 'R0ABCDEFGHIJKLMNOPQRSTUVWXYZ0123';
const policy = { allowPrivate: false, allowlist: [] };
const box = new SecretBox(Buffer.alloc(32, 7));
let sql: SqlClient;
const checked: string[] = [];

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  await runMigrations(sql);
});
afterAll(() => sql.close());

const service = (secrets: SecretBox = box) =>
  new WebhookProviderService(sql, {
    policy,
    secrets,
    checkTarget: async (url) => {
      checked.push(url);
    },
  });

async function stored(id: string) {
  const { rows } = await sql.query<Record<string, unknown>>(
    'SELECT url, destination_kind, destination_options, destination_credential FROM webhook_providers WHERE id = $1',
    [id],
  );
  return rows[0];
}

describe('providers of each destination kind', () => {
  it('keeps a provider enrolled without a destination a SPEC webhook, as before', async () => {
    checked.length = 0;
    const { provider } = await service().enroll({
      name: 'SOAR',
      kind: 'automation',
      url: 'https://soar.example.com/hook',
    });
    expect(provider).toMatchObject({
      destination: 'webhook',
      url: 'https://soar.example.com/hook',
    });
    expect(checked).toEqual(['https://soar.example.com/hook']);
    const target = (await service().targets([provider.id])).get(provider.id)!;
    expect(target.destination).toEqual({
      kind: 'webhook',
      url: 'https://soar.example.com/hook',
    });
  });

  it('seals a Slack webhook URL, lists it without its credential and opens it for the notifier', async () => {
    const audit = { actor: operatorActor('test'), requestId: 'r-1' };
    const { provider } = await service().enroll(
      { name: 'SOC channel', kind: 'custom', url: SLACK_URL, destination: { kind: 'slack' } },
      audit,
    );
    expect(provider).toMatchObject({
      destination: 'slack',
      url: 'https://hooks.slack.com/services/…',
    });
    const row = await stored(provider.id);
    expect(row.destination_credential).toMatch(new RegExp(`^v1:${box.keyId}:`));
    expect(JSON.stringify(row)).not.toContain('vigilTestWebhookSecret24');
    const target = (await service().targets([provider.id])).get(provider.id)!;
    expect(target.destination).toEqual({ kind: 'slack', url: SLACK_URL });
    const {
      events: [event],
    } = await new SqlAuditLog(sql).list({ limit: 1 });
    expect(event).toMatchObject({ action: 'provider.enrolled' });
    expect(JSON.stringify(event)).not.toContain('vigilTestWebhookSecret24');
    expect(event.details).toMatchObject({ destination: 'slack' });
  });

  it('stores PagerDuty’s settings in the open and its routing key sealed', async () => {
    const { provider } = await service().enroll({
      name: 'On-call',
      kind: 'custom',
      url: '',
      destination: {
        kind: 'pagerduty',
        routingKey: ROUTING_KEY,
        region: 'eu',
        source: 'vigil-prod',
      },
    });
    expect(provider).toMatchObject({
      destination: 'pagerduty',
      url: 'https://events.eu.pagerduty.com/v2/enqueue',
      pagerDuty: { severityMapping: DEFAULT_SEVERITY_MAPPING, source: 'vigil-prod', region: 'eu' },
    });
    expect(JSON.stringify(await stored(provider.id))).not.toContain(ROUTING_KEY);
    expect((await service().list()).find((p) => p.id === provider.id)).toEqual(provider);
    const target = (await service().targets([provider.id])).get(provider.id)!;
    expect(target.destination).toEqual({
      kind: 'pagerduty',
      routingKey: ROUTING_KEY,
      severityMapping: DEFAULT_SEVERITY_MAPPING,
      source: 'vigil-prod',
      region: 'eu',
    });
  });

  it('refuses each wrong field with a message on that field, storing nothing', async () => {
    const before = (await service().list()).length;
    const slack = await webhookProviderRefusal(
      service().enroll({
        name: 'x',
        kind: 'custom',
        url: 'https://example.com/services/a',
        destination: { kind: 'slack' },
      }),
    );
    expect(slack).toMatchObject({ code: 'invalid_request', field: 'url' });
    const pagerDuty = await webhookProviderRefusal(
      service().enroll({
        name: 'x',
        kind: 'custom',
        url: '',
        destination: { kind: 'pagerduty', routingKey: 'short', region: 'mars' },
      }),
    );
    expect(pagerDuty.fieldErrors.map((e) => e.field)).toEqual(['routingKey', 'region']);
    const kind = await webhookProviderRefusal(
      service().enroll({ name: 'x', kind: 'custom', url: '', destination: { kind: 'fax' } }),
    );
    expect(kind).toMatchObject({ field: 'kind' });
    expect(await service().list()).toHaveLength(before);
  });

  it('moves credentials to a new secrets key with the signing secrets', async () => {
    const next = new SecretBox(Buffer.alloc(32, 8));
    const report = await resealStoredSecrets(sql, box, next);
    expect(report.resealed).toBeGreaterThanOrEqual(5);
    const [slack] = (await service(next).list()).filter((p) => p.destination === 'slack');
    const target = (await service(next).targets([slack.id])).get(slack.id)!;
    expect(target.destination).toMatchObject({ kind: 'slack', url: SLACK_URL });
  });
});
