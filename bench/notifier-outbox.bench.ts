/**
 * The notifier's outbox alone, against a minimal durable outbox on the same server, in the same
 * run: what the Postgres half of a delivery costs, without Kafka or HTTP. Both sides write the
 * same three things per delivery (the row, its claim, its attempt with the row's new state) in the
 * same batches: inserts of 500, claims of 2 × concurrency by two claim loops, each claim's
 * attempts in one write. The product's side is SqlDeliveryStore on the migrated schema; the
 * minimal side is a table with a primary key and the due index, and the plainest statements.
 *
 *   npm run bench:outbox      (BENCH_DELIVERIES, BENCH_CONCURRENCY, BENCH_PASSES)
 *
 * Why it matters: sending and the outbox share the machine's CPU, so at best the notifier runs
 * at 1 / (1 / raw POSTs + 1 / outbox alone); at 0.5 of raw POSTs (bench:notifier's target) the
 * outbox alone must be at least as fast as raw POSTs. Each pass starts from a new database, as
 * after a burst the deliveries table is not analysed yet. Removes its databases.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client as PgClient, Pool } from 'pg';
import {
  DELIVERY_CLAIM_SESSION_SETTINGS,
  SqlDeliveryStore,
  createPgSqlClient,
  runMigrations,
  type NewDelivery,
} from '@vigil/control-plane';
import { loadAverage, medianAndSpread, passCount } from './support/bench-passes';
import { BENCH_SERVERS } from './support/bench-servers';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const CLAIM = 2 * CONCURRENCY;
const CLAIM_LOOPS = 2;
const INSERT_BATCH = 500;
const TARGETS = Array.from({ length: 10 }, () => randomUUID());
const PAYLOAD = { text: 'x'.repeat(900) };

/** The three writes of one delivery's life, as one side makes them. */
interface Outbox {
  insert(count: number, offset: number): Promise<void>;
  /** Claims up to CLAIM due deliveries; returns their ids. */
  claim(): Promise<string[]>;
  recordDelivered(ids: readonly string[]): Promise<void>;
}

/** Deliveries/s of DELIVERIES through `outbox`: one insert loop and CLAIM_LOOPS claim loops. */
async function cycle(outbox: Outbox): Promise<number> {
  const started = performance.now();
  let done = 0;
  const inserting = (async () => {
    for (let offset = 0; offset < DELIVERIES; offset += INSERT_BATCH) {
      await outbox.insert(Math.min(INSERT_BATCH, DELIVERIES - offset), offset);
    }
  })();
  const claiming = async () => {
    while (done < DELIVERIES) {
      const ids = await outbox.claim();
      if (ids.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        continue;
      }
      await outbox.recordDelivered(ids);
      done += ids.length;
    }
  };
  await Promise.all([inserting, ...Array.from({ length: CLAIM_LOOPS }, claiming)]);
  return DELIVERIES / ((performance.now() - started) / 1000);
}

async function productOutbox(url: string): Promise<{ outbox: Outbox; close(): Promise<void> }> {
  // The notifier's own connections: with the settings its claim needs.
  const sql = createPgSqlClient(url, 8, { sessionSettings: DELIVERY_CLAIM_SESSION_SETTINGS });
  await runMigrations(sql);
  const store = new SqlDeliveryStore(sql);
  const outbox: Outbox = {
    async insert(count, offset) {
      const deliveries: NewDelivery[] = Array.from({ length: count }, (_, i) => ({
        id: randomUUID(),
        notificationId: randomUUID(),
        kind: 'detection',
        channel: 'webhook',
        target: TARGETS[(offset + i) % TARGETS.length],
        subjectId: `det-${(offset + i) % 200}`,
        payload: PAYLOAD,
      }));
      await store.insertAlone(deliveries);
    },
    async claim() {
      const claimed = await store.claimDue(CLAIM, 60_000, { free: new Map(), defaultFree: CLAIM });
      return claimed.map((delivery) => delivery.id);
    },
    async recordDelivered(ids) {
      await store.recordAttempts(
        ids.map((id) => ({
          id,
          attempt: { attemptedAt: new Date(), statusCode: 200, latencyMs: 1, error: null },
          result: { status: 'delivered' },
        })),
      );
    },
  };
  return { outbox, close: () => sql.close() };
}

async function minimalOutbox(url: string): Promise<{ outbox: Outbox; close(): Promise<void> }> {
  const pool = new Pool({ connectionString: url, max: 8 });
  await pool.query(`
    CREATE TABLE outbox (
      id uuid PRIMARY KEY, target text NOT NULL, status text NOT NULL,
      next_attempt_at timestamptz, lease_until timestamptz, attempt_count int NOT NULL DEFAULT 0,
      payload jsonb NOT NULL);
    CREATE INDEX outbox_due_idx ON outbox (next_attempt_at) WHERE status = 'pending';
    CREATE TABLE outbox_attempts (
      id uuid NOT NULL, attempt int NOT NULL, attempted_at timestamptz NOT NULL,
      status_code int, PRIMARY KEY (id, attempt));`);
  const payload = JSON.stringify(PAYLOAD);
  const outbox: Outbox = {
    async insert(count, offset) {
      const ids = Array.from({ length: count }, () => randomUUID());
      const targets = ids.map((_, i) => TARGETS[(offset + i) % TARGETS.length]);
      await pool.query(
        `INSERT INTO outbox (id, target, status, next_attempt_at, payload)
         SELECT id, target, 'pending', now(), $3::jsonb FROM unnest($1::uuid[], $2::text[]) AS t(id, target)`,
        [ids, targets, payload],
      );
    },
    async claim() {
      const { rows } = await pool.query<{ id: string }>(
        `UPDATE outbox o SET status = 'delivering', lease_until = now() + interval '1 minute'
         FROM (SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= now()
               ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
         WHERE o.id = due.id
         RETURNING o.id, o.target, o.payload::text`,
        [CLAIM],
      );
      return rows.map((row) => row.id);
    },
    async recordDelivered(ids) {
      await pool.query(
        `WITH updated AS (
           UPDATE outbox o SET status = 'delivered', attempt_count = o.attempt_count + 1,
                  next_attempt_at = NULL, lease_until = NULL
           FROM unnest($1::uuid[]) AS i(id)
           WHERE o.id = i.id AND o.status = 'delivering'
           RETURNING o.id, o.attempt_count)
         INSERT INTO outbox_attempts SELECT id, attempt_count, now(), 200 FROM updated`,
        [ids],
      );
    },
  };
  return { outbox, close: () => pool.end() };
}

/** One pass of one side, in a database of its own made and dropped around it. */
async function pass(
  admin: PgClient,
  side: (url: string) => Promise<{ outbox: Outbox; close(): Promise<void> }>,
): Promise<number> {
  const database = `vigil_bench_outbox_${Date.now().toString(36)}${randomUUID().slice(0, 4)}`;
  await admin.query(`CREATE DATABASE "${database}"`);
  const url = new URL(BENCH_SERVERS.postgresAdminUrl);
  url.pathname = `/${database}`;
  const { outbox, close } = await side(url.toString());
  try {
    return await cycle(outbox);
  } finally {
    await close();
    await dropWhenClosed(admin, database);
  }
}

/**
 * Drops `database` once its connections have gone. Not WITH (FORCE): a pool's connections end
 * a moment after it says they have, and one killed while it ends raises an error nothing hears.
 */
async function dropWhenClosed(admin: PgClient, database: string): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      await admin.query(`DROP DATABASE "${database}"`);
      return;
    } catch (error) {
      // 55006: still in use by other sessions.
      if ((error as { code?: string }).code !== '55006' || tries === 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function main(): Promise<void> {
  const admin = new PgClient({ connectionString: BENCH_SERVERS.postgresAdminUrl });
  await admin.connect();
  try {
    const product: number[] = [];
    const minimal: number[] = [];
    // Alternating sides, so a machine that grows busier during the run favours neither.
    for (let i = 0; i < passCount(); i++) {
      if (i % 2 === 0) {
        product.push(await pass(admin, productOutbox));
        minimal.push(await pass(admin, minimalOutbox));
      } else {
        minimal.push(await pass(admin, minimalOutbox));
        product.push(await pass(admin, productOutbox));
      }
    }
    const ratios = product.map((rate, i) => rate / minimal[i]);
    console.log(
      `notifier outbox alone (no Kafka, no HTTP), ${DELIVERIES} deliveries, claims of ${CLAIM} ` +
        `by ${CLAIM_LOOPS} loops, ${product.length} passes, median (spread); ` +
        `load average ${loadAverage()}`,
    );
    console.log(`  minimal outbox (pk + due index)      ${medianAndSpread(minimal)} deliveries/s`);
    console.log(`  SqlDeliveryStore (migrated schema)   ${medianAndSpread(product)} deliveries/s`);
    console.log(`  ratio store / minimal                ${medianAndSpread(ratios, 3)}`);
    console.log(
      '  (bench:notifier at 0.5 of raw POSTs needs the store alone at least as fast as raw POSTs)',
    );
  } finally {
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
