import { randomUUID } from 'node:crypto';
import { operatorActor, type AuditContext } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { type AttemptResult, type NewDelivery } from '../deliveries/delivery';
import { SqlDeliveryLog } from '../deliveries/sql-delivery-log';
import { SqlDeliveryStore } from '../deliveries/sql-delivery-store';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { webhookProviderRefusal } from '../testing/webhook-provider-refusal';
import { WebhookProviderService } from './webhook-provider.service';

let sql: SqlClient;
let store: SqlDeliveryStore;
let log: SqlDeliveryLog;

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  await runMigrations(sql);
  store = new SqlDeliveryStore(sql);
  log = new SqlDeliveryLog(sql);
});
afterAll(() => sql.close());

const audit: AuditContext = { actor: operatorActor('oncall') };

const service = () =>
  new WebhookProviderService(sql, {
    policy: { allowPrivate: false, allowlist: [] },
    checkTarget: async () => undefined,
  });

async function aProvider(name = 'SOAR'): Promise<string> {
  const { provider } = await service().enroll({
    name,
    kind: 'custom',
    url: `https://${randomUUID()}.example.com/hook`,
  });
  return provider.id;
}

function aDelivery(target: string, overrides: Partial<NewDelivery> = {}): NewDelivery {
  return {
    id: randomUUID(),
    notificationId: randomUUID(),
    kind: 'detection',
    channel: 'webhook',
    target,
    subjectId: `det-${randomUUID()}`,
    payload: { hello: 'world' },
    ...overrides,
  };
}

/** Inserted one statement at a time, so each is created after the one before. */
async function insertInOrder(deliveries: readonly NewDelivery[]): Promise<void> {
  for (const delivery of deliveries) await store.insert(sql, [delivery]);
}

/** Leases these deliveries, as a worker's claim would. */
async function lease(ids: readonly string[]): Promise<void> {
  await sql.query(
    `UPDATE deliveries SET status = 'delivering', lease_until = now() + interval '1 minute'
     WHERE id = ANY($1::uuid[])`,
    [ids],
  );
}

/** Records one attempt of each delivery at its time, in one batch. */
async function attempt(
  ...attempts: { id: string; at: Date; result: AttemptResult }[]
): Promise<void> {
  await lease(attempts.map((a) => a.id));
  await store.recordAttempts(
    attempts.map(({ id, at, result }) => ({
      id,
      attempt: { attemptedAt: at, statusCode: 503, latencyMs: 10, error: 'HTTP 503' },
      result,
    })),
  );
}

async function healthOf(providerId: string) {
  return (await service().list()).find((p) => p.id === providerId)!.health;
}

/** Deliveries made dead (after their last retry) or set aside as a disabled provider's. */
async function setStatus(
  ids: readonly string[],
  status: 'dead' | 'skipped',
  skipCause: 'filter' | 'disabled' | null = null,
): Promise<void> {
  await sql.query(
    `UPDATE deliveries SET status = $2, skip_cause = $3, next_attempt_at = NULL,
       series_failures = 5, last_error = 'HTTP 503'
     WHERE id = ANY($1::uuid[])`,
    [ids, status, skipCause],
  );
}

async function pendingInQueueOrder(providerId: string): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id FROM deliveries WHERE target = $1 AND status = 'pending'
     ORDER BY next_attempt_at, id`,
    [providerId],
  );
  return rows.map((row) => row.id);
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe('endpoint health counters on PostgreSQL', () => {
  it('counts failures from the first one and dead deliveries in a row, across batches', async () => {
    const provider = await aProvider();
    const [a, b, c] = [aDelivery(provider), aDelivery(provider), aDelivery(provider)];
    await insertInOrder([a, b, c]);

    const firstFailure = minutesAgo(30);
    await attempt({ id: a.id, at: firstFailure, result: { status: 'retry', delayMs: 1000 } });
    expect(await healthOf(provider)).toEqual({ failingSince: firstFailure, deadInARow: 0 });

    await attempt(
      { id: b.id, at: minutesAgo(20), result: { status: 'dead' } },
      { id: c.id, at: minutesAgo(10), result: { status: 'dead' } },
    );
    expect(await healthOf(provider)).toEqual({ failingSince: firstFailure, deadInARow: 2 });
  });

  it('restarts the counters at a success, keeping only the failures after it', async () => {
    const provider = await aProvider();
    const deliveries = [aDelivery(provider), aDelivery(provider), aDelivery(provider)];
    await insertInOrder(deliveries);
    await attempt({ id: deliveries[0].id, at: minutesAgo(50), result: { status: 'dead' } });
    expect((await healthOf(provider)).deadInARow).toBe(1);

    const failedAfter = minutesAgo(5);
    await attempt(
      { id: deliveries[1].id, at: minutesAgo(10), result: { status: 'delivered' } },
      { id: deliveries[2].id, at: failedAfter, result: { status: 'dead' } },
    );
    expect(await healthOf(provider)).toEqual({ failingSince: failedAfter, deadInARow: 1 });

    const next = aDelivery(provider);
    await insertInOrder([next]);
    await attempt({ id: next.id, at: minutesAgo(1), result: { status: 'delivered' } });
    expect(await healthOf(provider)).toEqual({ failingSince: null, deadInARow: 0 });
  });

  it('writes a provider only when its counters change', async () => {
    const provider = await aProvider();
    const version = async () =>
      (
        await sql.query<{ xmin: string }>(
          `SELECT xmin::text FROM webhook_providers WHERE id = $1`,
          [provider],
        )
      ).rows[0].xmin;
    const deliveries = Array.from({ length: 4 }, () => aDelivery(provider));
    await insertInOrder(deliveries);

    const healthy = await version();
    await attempt({ id: deliveries[0].id, at: minutesAgo(40), result: { status: 'delivered' } });
    expect(await version()).toBe(healthy);

    const firstFailure = minutesAgo(30);
    await attempt({
      id: deliveries[1].id,
      at: firstFailure,
      result: { status: 'retry', delayMs: 1 },
    });
    const failing = await version();
    expect(failing).not.toBe(healthy);

    // Another retry moves neither counter: failing since the first failure, nothing dead.
    await attempt({
      id: deliveries[2].id,
      at: minutesAgo(20),
      result: { status: 'retry', delayMs: 1 },
    });
    expect(await version()).toBe(failing);
    expect(await healthOf(provider)).toEqual({ failingSince: firstFailure, deadInARow: 0 });

    await attempt({ id: deliveries[3].id, at: minutesAgo(10), result: { status: 'delivered' } });
    expect(await version()).not.toBe(failing);
    expect(await healthOf(provider)).toEqual({ failingSince: null, deadInARow: 0 });
  });

  it('leaves the counters alone for email attempts', async () => {
    const provider = await aProvider();
    const email = aDelivery(provider, { channel: 'email' });
    await insertInOrder([email]);
    await attempt({ id: email.id, at: minutesAgo(3), result: { status: 'dead' } });
    expect(await healthOf(provider)).toEqual({ failingSince: null, deadInARow: 0 });
  });
});

describe('disabling a provider on PostgreSQL', () => {
  it('skips its pending deliveries with the reason, leaves the others, and is audited', async () => {
    const provider = await aProvider();
    const other = await aProvider('Other');
    const pending = [aDelivery(provider), aDelivery(provider)];
    const delivered = aDelivery(provider);
    const othersPending = aDelivery(other);
    await insertInOrder([...pending, delivered, othersPending]);
    await attempt({ id: delivered.id, at: minutesAgo(1), result: { status: 'delivered' } });

    const disabled = await service().disable(provider, 'Endpoint down for maintenance', audit);
    expect(disabled?.disabled).toEqual({
      at: expect.any(Date) as Date,
      reason: 'Endpoint down for maintenance',
    });
    for (const { id } of pending) {
      expect(await log.find(id)).toMatchObject({
        status: 'skipped',
        skipCause: 'disabled',
        lastError: 'Provider disabled: Endpoint down for maintenance',
        nextAttemptAt: null,
      });
    }
    expect(await log.find(delivered.id)).toMatchObject({ status: 'delivered' });
    expect(await log.find(othersPending.id)).toMatchObject({ status: 'pending' });
    expect((await service().targets([provider])).get(provider)?.disabled).toBe(true);
    expect((await service().targets([other])).get(other)?.disabled).toBe(false);

    const { events } = await new SqlAuditLog(sql).list({
      action: 'provider.disabled',
      targetId: provider,
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: { type: 'operator', label: 'oncall' },
      target: { type: 'webhook_provider', id: provider },
      details: { reason: 'Endpoint down for maintenance', skippedPending: 2 },
    });
  });

  it('skips pending deliveries whatever the case of the id it is given', async () => {
    const provider = await aProvider();
    const pending = aDelivery(provider);
    await insertInOrder([pending]);
    await service().disable(provider.toUpperCase(), 'Down', audit);
    expect(await log.find(pending.id)).toMatchObject({ status: 'skipped', skipCause: 'disabled' });
  });

  it('keeps the first reason of a disabled provider and returns null', async () => {
    const provider = await aProvider();
    await service().disable(provider, 'First', audit);
    await expect(service().disable(provider, 'Second', audit)).resolves.toBeNull();
    expect((await service().list()).find((p) => p.id === provider)?.disabled?.reason).toBe('First');
    const { events } = await new SqlAuditLog(sql).list({
      action: 'provider.disabled',
      targetId: provider,
    });
    expect(events).toHaveLength(1);
  });

  it('refuses an unknown or deleted provider as not found', async () => {
    const unknown = await webhookProviderRefusal(
      service().disable('00000000-0000-4000-8000-000000000000', 'Down', audit),
    );
    expect(unknown.code).toBe('not_found');
    expect((await webhookProviderRefusal(service().disable('nope', 'Down', audit))).code).toBe(
      'not_found',
    );
    const deleted = await aProvider();
    await service().delete(deleted);
    expect((await webhookProviderRefusal(service().disable(deleted, 'Down', audit))).code).toBe(
      'not_found',
    );
  });

  it('stops moving the counters while disabled', async () => {
    const provider = await aProvider();
    const late = aDelivery(provider);
    await insertInOrder([late]);
    await lease([late.id]);
    await service().disable(provider, 'Down', audit);
    // An attempt under way when it was disabled finishes, but no longer counts.
    await store.recordAttempts([
      {
        id: late.id,
        attempt: { attemptedAt: minutesAgo(1), statusCode: 503, latencyMs: 5, error: 'HTTP 503' },
        result: { status: 'dead' },
      },
    ]);
    expect(await healthOf(provider)).toEqual({ failingSince: null, deadInARow: 0 });
  });

  it('lists the disabled providers, the longest-disabled first', async () => {
    const first = await aProvider('First down');
    const second = await aProvider('Second down');
    const up = await aProvider('Up');
    await service().disable(first, 'One', audit);
    await service().disable(second, 'Two', audit);
    const ids = (await service().listDisabled()).map((p) => p.id);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect(ids).not.toContain(up);
  });
});

describe('enabling a provider on PostgreSQL', () => {
  it('queues its dead and skipped-while-disabled deliveries since the time, in creation order, with their ids', async () => {
    const provider = await aProvider();
    const other = await aProvider('Other');
    const older = aDelivery(provider);
    const recovered = [aDelivery(provider), aDelivery(provider), aDelivery(provider)];
    const filtered = aDelivery(provider, {
      skippedBecause: 'Filtered out: this provider receives investigations only.',
    });
    const othersDead = aDelivery(other);
    await insertInOrder([older, recovered[0], filtered, recovered[1], othersDead, recovered[2]]);
    await sql.query(`UPDATE deliveries SET created_at = now() - interval '2 days' WHERE id = $1`, [
      older.id,
    ]);
    await setStatus([older.id, recovered[0].id, recovered[2].id, othersDead.id], 'dead');
    await service().disable(provider, 'Down', audit);
    await setStatus([recovered[1].id], 'skipped', 'disabled');

    const { provider: enabled, recovered: count } = await service().enable(
      provider,
      { recoverSince: new Date(Date.now() - 24 * 60 * 60 * 1000) },
      audit,
    );
    expect(count).toBe(3);
    expect(enabled.disabled).toBeUndefined();
    expect(await pendingInQueueOrder(provider)).toEqual(recovered.map((d) => d.id));
    for (const { id } of recovered) {
      const delivery = await log.find(id);
      expect(delivery).toMatchObject({ status: 'pending' });
      expect(delivery?.skipCause).toBeUndefined();
    }
    const { rows } = await sql.query<{ series_failures: number }>(
      `SELECT series_failures FROM deliveries WHERE id = ANY($1::uuid[])`,
      [recovered.map((d) => d.id)],
    );
    expect(rows.map((row) => row.series_failures)).toEqual([0, 0, 0]);
    expect(await log.find(older.id)).toMatchObject({ status: 'dead' });
    expect(await log.find(filtered.id)).toMatchObject({ status: 'skipped', skipCause: 'filter' });
    expect(await log.find(othersDead.id)).toMatchObject({ status: 'dead' });
    expect((await service().targets([provider])).get(provider)?.disabled).toBe(false);
  });

  it('starts the counters afresh and audits the enabling and the recovery with the count', async () => {
    const provider = await aProvider();
    const dead = aDelivery(provider);
    await insertInOrder([dead]);
    await attempt({ id: dead.id, at: minutesAgo(5), result: { status: 'dead' } });
    expect((await healthOf(provider)).deadInARow).toBe(1);
    await service().disable(provider, 'Down', audit);

    const since = minutesAgo(60);
    const { recovered } = await service().enable(provider, { recoverSince: since }, audit);
    expect(recovered).toBe(1);
    expect(await healthOf(provider)).toEqual({ failingSince: null, deadInARow: 0 });

    const audits = new SqlAuditLog(sql);
    const enabled = await audits.list({ action: 'provider.enabled', targetId: provider });
    expect(enabled.events).toHaveLength(1);
    expect(enabled.events[0].actor).toMatchObject({ type: 'operator', label: 'oncall' });
    const recoveries = await audits.list({ action: 'deliveries.recovered', targetId: provider });
    expect(recoveries.events[0]).toMatchObject({
      target: { type: 'webhook_provider', id: provider },
      details: { since: since.toISOString(), recovered: 1 },
    });
  });

  it('recovers the dead deliveries of an enabled provider without an enabling event', async () => {
    const provider = await aProvider();
    const dead = aDelivery(provider);
    await insertInOrder([dead]);
    await setStatus([dead.id], 'dead');
    const { recovered } = await service().enable(provider, { recoverSince: minutesAgo(5) }, audit);
    expect(recovered).toBe(1);
    const audits = new SqlAuditLog(sql);
    expect((await audits.list({ action: 'provider.enabled', targetId: provider })).events).toEqual(
      [],
    );
  });

  it('recovers nothing without a time, and is not found for an unknown provider', async () => {
    const provider = await aProvider();
    const dead = aDelivery(provider);
    await insertInOrder([dead]);
    await setStatus([dead.id], 'dead');
    await service().disable(provider, 'Down', audit);
    await expect(service().enable(provider, {}, audit)).resolves.toMatchObject({ recovered: 0 });
    expect(await log.find(dead.id)).toMatchObject({ status: 'dead' });
    const missing = await webhookProviderRefusal(
      service().enable('00000000-0000-4000-8000-000000000000', {}, audit),
    );
    expect(missing.code).toBe('not_found');
  });

  it('refuses a recovery time in the future on recoverSince, changing nothing', async () => {
    const provider = await aProvider();
    await service().disable(provider, 'Down', audit);
    const refused = await webhookProviderRefusal(
      service().enable(provider, { recoverSince: new Date(Date.now() + 60_000) }, audit),
    );
    expect(refused).toMatchObject({ code: 'invalid_request', field: 'recoverSince' });
    const invalid = await webhookProviderRefusal(
      service().enable(provider, { recoverSince: new Date('not a time') }, audit),
    );
    expect(invalid.field).toBe('recoverSince');
    expect((await service().listDisabled()).map((p) => p.id)).toContain(provider);
  });

  it('recovers the deliveries whatever the case of the id it is given', async () => {
    const provider = await aProvider();
    const dead = aDelivery(provider);
    await insertInOrder([dead]);
    await setStatus([dead.id], 'dead');
    const { recovered } = await service().enable(
      provider.toUpperCase(),
      { recoverSince: minutesAgo(5) },
      audit,
    );
    expect(recovered).toBe(1);
  });
});
