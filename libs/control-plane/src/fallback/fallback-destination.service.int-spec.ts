import { randomUUID } from 'node:crypto';
import { operatorActor, type AuditContext } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { WebhookProviderService } from '../webhook-providers/webhook-provider.service';
import { FallbackDestinationService } from './fallback-destination.service';
import { FallbackError } from './fallback-error';

let sql: SqlClient;
let fallbacks: FallbackDestinationService;

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  await runMigrations(sql);
  fallbacks = new FallbackDestinationService(sql);
});
afterAll(() => sql.close());

const audit: AuditContext = { actor: operatorActor('oncall') };

const providers = () =>
  new WebhookProviderService(sql, {
    policy: { allowPrivate: false, allowlist: [] },
    checkTarget: async () => undefined,
  });

async function aProvider(name = 'Fallback SOAR'): Promise<{ id: string; name: string }> {
  const { provider } = await providers().enroll({
    name,
    kind: 'custom',
    url: `https://${randomUUID()}.example.com/hook`,
  });
  return provider;
}

const aDetection = () => `det-${randomUUID()}`;

/** The FallbackError a change is refused with; fails the test if none. */
async function refusal(promise: Promise<unknown>): Promise<FallbackError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof FallbackError)) {
    throw new Error(`expected a FallbackError, got ${String(error)}`);
  }
  return error;
}

/** Each test starts without a global destination (the tests share one database). */
beforeEach(() => fallbacks.setGlobal({}, audit));

describe('fallback destinations on PostgreSQL', () => {
  it('sets, shows and clears the global destination', async () => {
    const provider = await aProvider();
    const set = await fallbacks.setGlobal(
      { providerId: provider.id, recipients: 'soc@example.com' },
      audit,
    );
    expect(set).toMatchObject({
      scope: '*',
      providerId: provider.id,
      providerName: provider.name,
      recipients: ['soc@example.com'],
    });
    expect((await fallbacks.show()).global).toEqual(set);

    await expect(fallbacks.setGlobal({ providerId: ' ', recipients: '' }, audit)).resolves.toBe(
      null,
    );
    expect(await fallbacks.show()).toEqual({ global: null, detection: null });
  });

  it("sets and clears a detection's own destination beside the global one", async () => {
    const detection = aDetection();
    await fallbacks.setGlobal({ recipients: ['global@example.com'] }, audit);
    const own = await fallbacks.setForDetection(
      detection,
      { recipients: ['team@example.com'] },
      audit,
    );
    expect(own).toMatchObject({ scope: detection, providerId: null, providerName: null });

    const shown = await fallbacks.show(detection);
    expect(shown.global?.recipients).toEqual(['global@example.com']);
    expect(shown.detection?.recipients).toEqual(['team@example.com']);
    expect((await fallbacks.show(aDetection())).detection).toBeNull();

    await fallbacks.setForDetection(detection, {}, audit);
    expect((await fallbacks.show(detection)).detection).toBeNull();
    expect((await fallbacks.show(detection)).global).not.toBeNull();
  });

  it('refuses the global scope or a blank one as a detection id', async () => {
    for (const detectionId of ['*', '']) {
      const error = await refusal(
        fallbacks.setForDetection(detectionId, { recipients: 'a@example.com' }, audit),
      );
      expect(error.field).toBe('detectionId');
    }
  });

  it('reads recipients as typed: commas and new lines, lower-cased, each once', async () => {
    const set = await fallbacks.setGlobal(
      { recipients: 'SOC@Example.com, oncall@example.com\n\nsoc@example.com,\r\nlead@example.com' },
      audit,
    );
    expect(set?.recipients).toEqual(['soc@example.com', 'oncall@example.com', 'lead@example.com']);
  });

  it('refuses an invalid address, or more than 20, on recipients, changing nothing', async () => {
    await fallbacks.setGlobal({ recipients: 'kept@example.com' }, audit);
    const invalid = await refusal(
      fallbacks.setGlobal({ recipients: 'ok@example.com, not-an-address' }, audit),
    );
    expect(invalid).toMatchObject({ code: 'invalid_request', field: 'recipients' });
    expect(invalid.message).toContain('"not-an-address" is not an email address');

    const many = Array.from({ length: 21 }, (_, i) => `analyst${i}@example.com`);
    const tooMany = await refusal(fallbacks.setGlobal({ recipients: many }, audit));
    expect(tooMany).toMatchObject({ field: 'recipients' });
    await expect(
      fallbacks.setGlobal({ recipients: many.slice(0, 20) }, audit),
    ).resolves.toMatchObject({ recipients: many.slice(0, 20) });
  });

  it('refuses a provider that is unknown, not an id, or deleted, on providerId', async () => {
    const deleted = await aProvider('Gone');
    await providers().delete(deleted.id);
    for (const providerId of [deleted.id, randomUUID(), 'soar']) {
      const error = await refusal(fallbacks.setGlobal({ providerId }, audit));
      expect(error).toMatchObject({ code: 'invalid_request', field: 'providerId' });
    }
    expect((await fallbacks.show()).global).toBeNull();
  });

  it("resolves each subject to the detection's own destination, else the global one", async () => {
    const own = aDetection();
    const other = aDetection();
    await fallbacks.setGlobal({ recipients: 'global@example.com' }, audit);
    await fallbacks.setForDetection(own, { recipients: 'team@example.com' }, audit);

    const { global, bySubject } = await fallbacks.resolve([own, other, null, own]);
    expect(global?.recipients).toEqual(['global@example.com']);
    expect([...bySubject.keys()]).toEqual([own]);
    expect(bySubject.get(own)?.recipients).toEqual(['team@example.com']);
  });

  it('leaves a deleted provider out of a stored destination, keeping its recipients', async () => {
    const provider = await aProvider();
    const detection = aDetection();
    await fallbacks.setGlobal({ providerId: provider.id, recipients: 'soc@example.com' }, audit);
    await fallbacks.setForDetection(detection, { providerId: provider.id }, audit);
    await providers().delete(provider.id);

    const shown = await fallbacks.show(detection);
    expect(shown.global).toMatchObject({
      providerId: null,
      providerName: null,
      recipients: ['soc@example.com'],
    });
    // Left with nothing, the detection's own gives way to the global one.
    expect(shown.detection).toBeNull();
    expect((await fallbacks.resolve([detection])).bySubject.has(detection)).toBe(false);
  });

  it('audits every change with the destination before and after', async () => {
    const provider = await aProvider();
    const detection = aDetection();
    await fallbacks.setForDetection(detection, { recipients: 'team@example.com' }, audit);
    await fallbacks.setForDetection(detection, { providerId: provider.id }, audit);
    await fallbacks.setForDetection(detection, {}, audit);

    const { events } = await new SqlAuditLog(sql).list({
      action: 'fallback.changed',
      targetId: detection,
    });
    expect(events.map((event) => event.details)).toEqual([
      { before: { providerId: provider.id, recipients: [] }, after: null },
      {
        before: { providerId: null, recipients: ['team@example.com'] },
        after: { providerId: provider.id, recipients: [] },
      },
      { before: null, after: { providerId: null, recipients: ['team@example.com'] } },
    ]);
    expect(events[0]).toMatchObject({
      actor: { type: 'operator', label: 'oncall' },
      target: { type: 'fallback_destination', id: detection },
    });
  });
});
