import { NO_PROVIDER_FILTER } from '@vigil/notification-policy';
import { operatorActor } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { SqlDeliveryStore } from '../deliveries/sql-delivery-store';
import { SqlDeliveryLog } from '../deliveries/sql-delivery-log';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { webhookProviderRefusal } from '../testing/webhook-provider-refusal';
import { WebhookProviderService } from './webhook-provider.service';

let sql: SqlClient;

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  await runMigrations(sql);
});
afterAll(() => sql.close());

const service = () =>
  new WebhookProviderService(sql, {
    policy: { allowPrivate: false, allowlist: [] },
    checkTarget: async () => undefined,
    knownSources: async () => ['github', 'okta'],
  });

describe('provider filters', () => {
  it('enrolls without a filter as receiving everything, as before', async () => {
    const { provider } = await service().enroll({
      name: 'SOAR',
      kind: 'custom',
      url: 'https://soar.example.com/hook',
    });
    expect(provider.filter).toEqual(NO_PROVIDER_FILTER);
    expect((await service().targets([provider.id])).get(provider.id)?.filter).toEqual(
      NO_PROVIDER_FILTER,
    );
  });

  it('stores a filter given at enrollment, sources in their known spelling, and hands it to the notifier', async () => {
    const { provider } = await service().enroll({
      name: 'Paging',
      kind: 'custom',
      url: 'https://paging.example.com/hook',
      filter: { subjects: 'detections', minRiskScore: '7.5', sources: ['OKTA'] },
    });
    const filter = { subjects: 'detections', minRiskScore: 7.5, sources: ['okta'] };
    expect(provider.filter).toEqual(filter);
    expect((await service().list()).find((p) => p.id === provider.id)?.filter).toEqual(filter);
    expect((await service().targets([provider.id])).get(provider.id)?.filter).toEqual(filter);
  });

  it('refuses a filter field by field, naming unknown sources, and enrolls nothing', async () => {
    const before = (await service().list()).length;
    const error = await webhookProviderRefusal(
      service().enroll({
        name: 'Bad',
        kind: 'custom',
        url: 'https://bad.example.com/hook',
        filter: { subjects: 'alerts', minRiskScore: 'high', sources: ['splunk'] },
      }),
    );
    expect(error.code).toBe('invalid_request');
    expect(error.fieldErrors.map((e) => e.field)).toEqual([
      'filter.subjects',
      'filter.minRiskScore',
      'filter.sources[0]',
    ]);
    expect(error.fieldErrors[2].message).toBe(
      '"splunk" is not a known source (known: github, okta)',
    );
    expect((await service().list()).length).toBe(before);
  });

  it('changes a filter, audited with before and after; an unknown provider is not found', async () => {
    const { provider } = await service().enroll({
      name: 'Chat',
      kind: 'custom',
      url: 'https://chat.example.com/hook',
    });
    const audit = { actor: operatorActor('test'), address: null, requestId: null };
    const changed = await service().setFilter(
      provider.id,
      { subjects: 'investigations', minRiskScore: '', sources: [] },
      audit,
    );
    expect(changed.filter).toEqual({ subjects: 'investigations', minRiskScore: null, sources: [] });
    const { events } = await new SqlAuditLog(sql).list({ action: 'provider.filter_changed' });
    expect(events[0]).toMatchObject({
      target: { type: 'webhook_provider', id: provider.id },
      details: { before: NO_PROVIDER_FILTER, after: changed.filter },
    });
    const missing = await webhookProviderRefusal(
      service().setFilter('00000000-0000-4000-8000-000000000000', {}, audit),
    );
    expect(missing.code).toBe('not_found');
  });

  it('records a skipped delivery with its reason, never due, beside a pending one', async () => {
    const store = new SqlDeliveryStore(sql);
    const base = {
      notificationId: 'n-filters',
      kind: 'detection' as const,
      channel: 'webhook' as const,
      subjectId: 'det-1',
      payload: { hello: 'world' },
    };
    const rows = [
      { ...base, id: '11111111-1111-4111-8111-111111111111', target: 'a' },
      {
        ...base,
        id: '22222222-2222-4222-8222-222222222222',
        target: 'b',
        skippedBecause: 'Filtered out: this provider receives investigations only.',
      },
    ];
    await expect(sql.transaction((tx) => store.insert(tx, rows))).resolves.toEqual({
      created: 2,
      skipped: 1,
      leased: [],
    });
    // A replay creates, and skips, nothing more.
    await expect(sql.transaction((tx) => store.insert(tx, rows))).resolves.toEqual({
      created: 0,
      skipped: 0,
      leased: [],
    });
    const log = new SqlDeliveryLog(sql);
    const pending = await log.find('11111111-1111-4111-8111-111111111111');
    const skipped = await log.find('22222222-2222-4222-8222-222222222222');
    expect(pending).toMatchObject({ status: 'pending', lastError: null });
    expect(pending?.nextAttemptAt).not.toBeNull();
    expect(skipped).toMatchObject({
      status: 'skipped',
      lastError: 'Filtered out: this provider receives investigations only.',
      nextAttemptAt: null,
      attemptCount: 0,
    });
    const claimed = await store.claimDue(100, 60_000);
    expect(claimed.map((d) => d.id)).not.toContain('22222222-2222-4222-8222-222222222222');
  });
});
