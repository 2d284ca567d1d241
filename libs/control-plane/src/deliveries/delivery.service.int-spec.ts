import { randomUUID } from 'node:crypto';
import { operatorActor } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { type AttemptResult, type NewDelivery } from './delivery';
import { DeliveryService } from './delivery.service';
import { SqlDeliveryStore } from './sql-delivery-store';

let sql: SqlClient;
let store: SqlDeliveryStore;
let service: DeliveryService;

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  await runMigrations(sql);
  store = new SqlDeliveryStore(sql);
  service = new DeliveryService(sql);
});
afterAll(() => sql.close());

function aDelivery(overrides: Partial<NewDelivery> = {}): NewDelivery {
  return {
    id: randomUUID(),
    notificationId: randomUUID(),
    kind: 'detection',
    channel: 'webhook',
    target: randomUUID(),
    subjectId: `det-${randomUUID()}`,
    payload: { hello: 'world' },
    ...overrides,
  };
}

/** Inserted one statement at a time, so each is newer than the one before. */
async function insertInOrder(deliveries: NewDelivery[]): Promise<void> {
  for (const delivery of deliveries) await store.insert(sql, [delivery]);
}

describe('DeliveryService.list on PostgreSQL', () => {
  it('lists only the deliveries about one detection, newest first', async () => {
    const detection = `det-${randomUUID()}`;
    const provider = randomUUID();
    const mine = [
      aDelivery({ subjectId: detection, target: provider }),
      aDelivery({ subjectId: detection, channel: 'email', target: 'soc@example.com' }),
      aDelivery({ subjectId: detection, target: provider }),
    ];
    await insertInOrder([
      mine[0],
      aDelivery({ target: provider }),
      mine[1],
      aDelivery({ subjectId: null, kind: 'digest', channel: 'email', target: 'soc@example.com' }),
      mine[2],
    ]);

    const listed = await service.list({ subjectId: detection });
    expect(listed.map((d) => d.id)).toEqual([mine[2].id, mine[1].id, mine[0].id]);
    expect(listed.every((d) => d.subjectId === detection)).toBe(true);
    expect((await service.list({ subjectId: detection, limit: 2 })).map((d) => d.id)).toEqual([
      mine[2].id,
      mine[1].id,
    ]);
  });

  it('lists only the deliveries to one provider, whatever their subject', async () => {
    const provider = randomUUID();
    const sent = [aDelivery({ target: provider }), aDelivery({ target: provider, kind: 'digest' })];
    await insertInOrder([sent[0], aDelivery(), sent[1], aDelivery({ channel: 'email' })]);

    const listed = await service.list({ channel: 'webhook', target: provider });
    expect(listed.map((d) => d.id)).toEqual([sent[1].id, sent[0].id]);
    expect(await service.list({ channel: 'email', target: provider })).toEqual([]);
  });

  it('combines the subject and target filters with the status filter', async () => {
    const detection = `det-${randomUUID()}`;
    const provider = randomUUID();
    const pending = aDelivery({ subjectId: detection, target: provider });
    const other = aDelivery({ subjectId: detection });
    await insertInOrder([pending, other]);
    const [claimed] = (await store.claimDue(100, 60_000)).filter((c) => c.id === other.id);
    expect(claimed).toBeDefined();
    await store.recordAttempt(
      other.id,
      { attemptedAt: new Date(), statusCode: 500, latencyMs: 12, error: 'HTTP 500' },
      { status: 'dead' },
    );

    expect((await service.list({ subjectId: detection, status: 'dead' })).map((d) => d.id)).toEqual(
      [other.id],
    );
    expect(
      (await service.list({ subjectId: detection, target: provider })).map((d) => d.id),
    ).toEqual([pending.id]);
  });

  it('reads a subject’s and a target’s deliveries through their indexes', async () => {
    const plan = async (where: string) => {
      const { rows } = await sql.transaction(async (tx) => {
        // Tiny test tables are cheaper to scan; ask for the plan the index makes possible.
        await tx.query('SET LOCAL enable_seqscan = off');
        return tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT * FROM deliveries WHERE ${where} ORDER BY created_at DESC, id LIMIT 20`,
        );
      });
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    await expect(plan(`subject_id = 'det-x'`)).resolves.toContain('deliveries_subject_idx');
    await expect(plan(`target = 'p-1'`)).resolves.toContain('deliveries_target_idx');
  });
});

describe('SqlDeliveryStore.recordAttempts on PostgreSQL', () => {
  it('records several attempts in one write and leaves a delivery whose lease was lost', async () => {
    const [ok, retry, lost] = [aDelivery(), aDelivery(), aDelivery()];
    await store.insert(sql, [ok, retry, lost]);
    const claimed = (await store.claimDue(1000, 60_000)).map((c) => c.id);
    expect(claimed).toEqual(expect.arrayContaining([ok.id, retry.id, lost.id]));
    // Taken over: the lease expired and the delivery went back to the queue.
    await store.release([lost.id]);
    const attemptedAt = new Date('2026-01-02T03:04:05.678Z');
    const recorded = await store.recordAttempts([
      {
        id: ok.id.toUpperCase(),
        attempt: { attemptedAt, statusCode: 204, latencyMs: 4.4, error: null },
        result: { status: 'delivered' },
      },
      {
        id: retry.id,
        attempt: { attemptedAt, statusCode: 503, latencyMs: 9, error: 'HTTP 503' },
        result: { status: 'retry', delayMs: 60_000 },
      },
      {
        id: lost.id,
        attempt: { attemptedAt, statusCode: 204, latencyMs: 1, error: null },
        result: { status: 'delivered' },
      },
    ]);
    expect([...recorded].sort()).toEqual([ok.id, retry.id].sort());

    const [delivered, pending, untouched] = await Promise.all(
      [ok, retry, lost].map((d) => service.find(d.id)),
    );
    expect(delivered).toMatchObject({
      status: 'delivered',
      attemptCount: 1,
      deliveredAt: attemptedAt,
    });
    expect(pending).toMatchObject({ status: 'pending', attemptCount: 1, lastError: 'HTTP 503' });
    expect(pending!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(untouched).toMatchObject({ status: 'pending', attemptCount: 0 });
    expect(await service.attempts(ok.id)).toEqual([
      { attempt: 1, attemptedAt, statusCode: 204, latencyMs: 4, error: null },
    ]);
    expect(await service.attempts(lost.id)).toEqual([]);
  });
});

describe('SqlDeliveryStore.claimDue on PostgreSQL', () => {
  it('claims no more for a target than it has room for, oldest first', async () => {
    const [roomy, full, unknown] = [randomUUID(), randomUUID(), randomUUID()];
    const forRoomy = Array.from({ length: 5 }, () => aDelivery({ target: roomy }));
    await insertInOrder([
      ...forRoomy,
      ...Array.from({ length: 3 }, () => aDelivery({ target: full })),
      ...Array.from({ length: 2 }, () => aDelivery({ target: unknown })),
    ]);
    const claimed = await store.claimDue(1000, 60_000, {
      free: new Map([
        [roomy, 2],
        [full, 0],
      ]),
      defaultFree: 1,
    });
    const mine = (target: string) => claimed.filter((c) => c.target === target);
    expect(mine(roomy).map((c) => c.id)).toEqual(
      expect.arrayContaining([forRoomy[0].id, forRoomy[1].id]),
    );
    expect(mine(roomy)).toHaveLength(2);
    expect(mine(full)).toEqual([]);
    expect(mine(unknown)).toHaveLength(1);
  });
});

describe('DeliveryService reads for the pages, on PostgreSQL', () => {
  const at = (iso: string) => new Date(iso);

  /** Claims `delivery` and records one attempt with `statusCode`, then the given result. */
  async function attemptOnce(
    delivery: NewDelivery,
    statusCode: number,
    result: AttemptResult,
    attemptedAt: Date,
  ): Promise<void> {
    const claimed = await store.claimDue(1000, 60_000);
    await store.release(claimed.filter((c) => c.id !== delivery.id).map((c) => c.id));
    await store.recordAttempt(
      delivery.id,
      {
        attemptedAt,
        statusCode,
        latencyMs: 7,
        error: statusCode >= 300 ? `HTTP ${statusCode}` : null,
      },
      result,
    );
  }

  it('lists a subject’s deliveries with only their newest attempt', async () => {
    const detection = `det-${randomUUID()}`;
    const [twice, never] = [
      aDelivery({ subjectId: detection }),
      aDelivery({ subjectId: detection }),
    ];
    await insertInOrder([twice, never]);
    await attemptOnce(twice, 500, { status: 'retry', delayMs: 0 }, at('2026-01-01T00:00:00Z'));
    await attemptOnce(twice, 502, { status: 'dead' }, at('2026-01-01T00:05:00Z'));

    const listed = await service.listWithLastAttempt({ subjectId: detection });
    expect(listed.map((row) => [row.delivery.id, row.lastAttempt])).toEqual([
      [never.id, null],
      [
        twice.id,
        {
          attempt: 2,
          attemptedAt: at('2026-01-01T00:05:00Z'),
          statusCode: 502,
          latencyMs: 7,
          error: 'HTTP 502',
        },
      ],
    ]);
    expect(listed[1].delivery).toMatchObject({ status: 'dead', attemptCount: 2 });
  });

  it('lists a target’s deliveries with every attempt, oldest first', async () => {
    const provider = randomUUID();
    const [retried, fresh] = [aDelivery({ target: provider }), aDelivery({ target: provider })];
    await insertInOrder([retried, fresh]);
    await attemptOnce(retried, 503, { status: 'retry', delayMs: 0 }, at('2026-02-01T00:00:00Z'));
    await attemptOnce(retried, 204, { status: 'delivered' }, at('2026-02-01T00:01:00Z'));

    const listed = await service.listWithAttempts({ channel: 'webhook', target: provider });
    expect(listed.map((row) => [row.delivery.id, row.attempts.map((a) => a.statusCode)])).toEqual([
      [fresh.id, []],
      [retried.id, [503, 204]],
    ]);
  });

  it('finds the newest delivery to each target, and none for a target never sent to', async () => {
    const [busy, quiet, unused] = [randomUUID(), randomUUID(), randomUUID()];
    const sent = [aDelivery({ target: busy }), aDelivery({ target: quiet })];
    const newest = aDelivery({ target: busy });
    await insertInOrder([...sent, aDelivery({ target: busy, channel: 'email' }), newest]);

    const latest = await service.latestByTarget('webhook', [busy, quiet, unused]);
    expect([...latest].map(([target, d]) => [target, d.id]).sort()).toEqual(
      [
        [busy, newest.id],
        [quiet, sent[1].id],
      ].sort(),
    );
  });

  it('queues a delivery of its own once, due at once', async () => {
    const delivery = aDelivery();
    await service.enqueue(delivery);
    await service.enqueue({ ...delivery, id: randomUUID() });
    expect(await service.list({ notificationId: delivery.notificationId })).toEqual([
      expect.objectContaining({ id: delivery.id, status: 'pending', attemptCount: 0 }),
    ]);
  });
});

describe('SqlDeliveryStore.countBacklog on PostgreSQL', () => {
  it('counts the deliveries due now and those dead', async () => {
    const before = await store.countBacklog();
    const due = [aDelivery(), aDelivery({ channel: 'email', target: 'soc@example.com' })];
    const dying = aDelivery();
    await insertInOrder([...due, dying]);
    const claimed = await store.claimDue(1000, 60_000);
    await store.recordAttempt(
      dying.id,
      { attemptedAt: new Date(), statusCode: 500, latencyMs: 12, error: 'HTTP 500' },
      { status: 'dead' },
    );
    await store.release(claimed.filter((c) => c.id !== dying.id).map((c) => c.id));

    const after = await store.countBacklog();
    expect(after.due - before.due).toBe(2);
    expect(after.dead - before.dead).toBe(1);
  });
});

describe('DeliveryService audited changes, on PostgreSQL', () => {
  const context = { actor: operatorActor('ops'), requestId: `req-${randomUUID()}` };
  const events = async () =>
    (await new SqlAuditLog(sql).list({ actor: 'ops', limit: 500 })).events.filter(
      (e) => e.requestId === context.requestId,
    );

  it('records a resend and a queued delivery with their audit events, and no event for a refused resend', async () => {
    const dead = aDelivery();
    await insertInOrder([dead]);
    const claimed = await store.claimDue(1000, 60_000);
    await store.release(claimed.filter((c) => c.id !== dead.id).map((c) => c.id));
    await store.recordAttempt(
      dead.id,
      { attemptedAt: new Date(), statusCode: 500, latencyMs: 3, error: 'HTTP 500' },
      { status: 'dead' },
    );
    const resent = {
      action: 'delivery.resent' as const,
      context,
      target: { type: 'delivery', id: dead.id },
    };
    await service.resend(dead.id, resent);
    await expect(service.resend(dead.id, resent)).rejects.toMatchObject({ code: 'not_dead' });
    const queued = aDelivery();
    await service.enqueue(queued, {
      action: 'provider.test_sent',
      context,
      target: { type: 'webhook_provider', id: queued.target },
    });
    expect((await events()).map((e) => [e.action, e.target?.id])).toEqual([
      ['provider.test_sent', queued.target],
      ['delivery.resent', dead.id],
    ]);
  });
});

describe('SqlDeliveryStore.insertAlone on PostgreSQL', () => {
  const countTo = async (target: string) =>
    (
      await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM deliveries WHERE target = $1',
        [target],
      )
    ).rows[0].n;

  it('creates deliveries, and nothing when they are inserted again', async () => {
    const target = randomUUID();
    const deliveries = [aDelivery({ target }), aDelivery({ target }), aDelivery({ target })];
    expect(await store.insertAlone(deliveries)).toEqual({ created: 3, skipped: 0, leased: [] });
    expect(await store.insertAlone(deliveries)).toEqual({ created: 0, skipped: 0, leased: [] });
    expect(await countTo(target)).toBe(3);
    expect(await store.insertAlone([])).toEqual({ created: 0, skipped: 0, leased: [] });
  });

  it('writes more than one statement holds all or nothing', async () => {
    const target = randomUUID();
    const many = Array.from({ length: 1_001 }, () => aDelivery({ target }));
    const broken = [...many.slice(0, 1_000), { ...many[1_000], payloadJson: '{not json' }];
    await expect(store.insertAlone(broken)).rejects.toThrow();
    expect(await countTo(target)).toBe(0);
    expect(await store.insertAlone(many)).toEqual({ created: 1_001, skipped: 0, leased: [] });
    expect(await countTo(target)).toBe(1_001);
  });
});

describe('deliveries inserted leased on PostgreSQL', () => {
  const rowOf = async (id: string) =>
    (
      await sql.query<{ status: string; leased_for_ms: number | null; due: boolean }>(
        `SELECT status, (extract(epoch FROM lease_until - now()) * 1000)::int AS leased_for_ms,
                next_attempt_at <= now() AS due
         FROM deliveries WHERE id = $1`,
        [id],
      )
    ).rows[0];

  it('goes in leased, is returned ready to send with the payload as stored, and is never claimed', async () => {
    const target = randomUUID();
    const payloadJson = '{"b": 1,   "a": [1, 2]}';
    const leased = aDelivery({ target, payloadJson, leaseMs: 60_000 });
    const pending = aDelivery({ target });
    const skipped = aDelivery({ target, leaseMs: 60_000, skippedBecause: 'Filtered out.' });

    const inserted = await store.insertAlone([leased, pending, skipped]);

    expect(inserted).toEqual({
      created: 3,
      skipped: 1,
      leased: [
        {
          id: leased.id,
          notificationId: leased.notificationId,
          kind: 'detection',
          channel: 'webhook',
          target,
          payload: payloadJson,
          attemptCount: 0,
          seriesFailures: 0,
        },
      ],
    });
    const row = await rowOf(leased.id);
    expect(row.status).toBe('delivering');
    expect(row.leased_for_ms).toBeGreaterThan(50_000);
    expect(row.leased_for_ms).toBeLessThanOrEqual(60_000);
    // A skipped delivery is never leased, whatever it asked.
    expect(await rowOf(skipped.id)).toMatchObject({ status: 'skipped', leased_for_ms: null });
    const claimed = (await store.claimDue(1000, 60_000)).map((c) => c.id);
    expect(claimed).not.toContain(leased.id);
    expect((await rowOf(leased.id)).status).toBe('delivering');
    // Its attempt is recorded as a claimed delivery's is.
    const recorded = await store.recordAttempts([
      {
        id: leased.id,
        attempt: { attemptedAt: new Date(), statusCode: 204, latencyMs: 3, error: null },
        result: { status: 'delivered' },
      },
    ]);
    expect(recorded).toEqual(new Set([leased.id]));
    expect((await rowOf(leased.id)).status).toBe('delivered');
  });

  it('leases nothing on a replay, and a lease not recorded in time returns it to the queue', async () => {
    const target = randomUUID();
    const delivery = aDelivery({ target, leaseMs: 1 });
    expect((await store.insertAlone([delivery])).leased).toHaveLength(1);
    expect(await store.insertAlone([{ ...delivery, leaseMs: 60_000 }])).toEqual({
      created: 0,
      skipped: 0,
      leased: [],
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.releaseExpiredLeases()).toBeGreaterThanOrEqual(1);
    expect(await rowOf(delivery.id)).toMatchObject({ status: 'pending', due: true });
  });

  it('leases in a transaction only what the transaction commits', async () => {
    const target = randomUUID();
    const delivery = aDelivery({ target, leaseMs: 60_000 });
    await expect(
      sql.transaction(async (tx) => {
        expect((await store.insert(tx, [delivery])).leased).toHaveLength(1);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await rowOf(delivery.id)).toBeUndefined();
  });
});
