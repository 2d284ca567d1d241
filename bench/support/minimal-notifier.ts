/**
 * The floor of bench:notifier: the least a notifier with a durable outbox does per delivery, in
 * one Node process as the notifier is. It reads the same commands from Kafka (read committed,
 * the same decoder), renders the same body, inserts each batch into a minimal Postgres outbox
 * (primary key and due index) before its offsets are committed, claims due rows with SKIP
 * LOCKED, POSTs them over kept-alive connections with the same concurrency, and records the
 * answers, those that finish together in one write. No signature, no per-target limits, no
 * health, no metrics, no retries: what any such notifier must do, and nothing else.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Kafka } from 'kafkajs';
import { Pool } from 'pg';
import { buildDetectionWebhookPayload, decodeNotificationCommands } from '@vigil/contracts';

/** One JSON POST over `agent`, its answer read and dropped: the raw baseline's, and the floor's. */
export function rawPost(agent: http.Agent, url: string, body: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface MinimalNotifierOptions {
  kafka: Kafka;
  topic: string;
  databaseUrl: string;
  concurrency: number;
  appUrl: string;
  /** Where a provider's webhooks go. */
  urlOf(providerId: string): string;
}

export interface MinimalNotifier {
  stop(): Promise<void>;
}

export async function startMinimalNotifier(
  options: MinimalNotifierOptions,
): Promise<MinimalNotifier> {
  const { kafka, topic, concurrency } = options;
  const pool = new Pool({ connectionString: options.databaseUrl, max: 8 });
  await pool.query(`
    CREATE TABLE IF NOT EXISTS floor_outbox (
      id uuid PRIMARY KEY, url text NOT NULL, body text NOT NULL, status text NOT NULL,
      next_attempt_at timestamptz, lease_until timestamptz, attempt_count int NOT NULL DEFAULT 0);
    CREATE INDEX IF NOT EXISTS floor_outbox_due_idx ON floor_outbox (next_attempt_at)
      WHERE status = 'pending';`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let running = true;
  let wake: (() => void) | null = null;
  // A wake-up while the loop claims: the next wait is skipped.
  let woken = false;
  const wakeUp = () => {
    const w = wake;
    wake = null;
    if (w) w();
    else woken = true;
  };

  const consumer = kafka.consumer({ groupId: `${topic}.floor`, readUncommitted: false });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    partitionsConsumedConcurrently: 6,
    eachBatch: async ({ batch }) => {
      const ids: string[] = [];
      const urls: string[] = [];
      const bodies: string[] = [];
      for (const message of batch.messages) {
        const commands = decodeNotificationCommands(message.value);
        if (typeof commands === 'string') continue;
        for (const { decision } of commands) {
          if (decision.kind !== 'webhook') continue;
          for (const providerId of decision.providerIds) {
            const id = randomUUID();
            ids.push(id);
            urls.push(options.urlOf(providerId));
            bodies.push(
              JSON.stringify(
                buildDetectionWebhookPayload(decision, { id, recipientName: 'x' }, options.appUrl),
              ),
            );
          }
        }
      }
      if (ids.length > 0) {
        await pool.query(
          `INSERT INTO floor_outbox (id, url, body, status, next_attempt_at)
           SELECT id, url, body, 'pending', now()
           FROM unnest($1::uuid[], $2::text[], $3::text[]) AS t(id, url, body)`,
          [ids, urls, bodies],
        );
        wakeUp();
      }
    },
  });

  // Answers waiting for the next shared write.
  let unrecorded: string[] = [];
  let recording: Promise<void> | null = null;
  const record = () => {
    if (recording || unrecorded.length === 0) return;
    const ids = unrecorded;
    unrecorded = [];
    recording = pool
      .query(
        `UPDATE floor_outbox SET status = 'delivered', attempt_count = attempt_count + 1,
                next_attempt_at = NULL, lease_until = NULL
         WHERE id = ANY($1::uuid[]) AND status = 'delivering'`,
        [ids],
      )
      .then(() => undefined)
      .finally(() => {
        recording = null;
        record();
      });
  };

  let sending = 0;
  const queued: { id: string; url: string; body: string }[] = [];
  const post = (url: string, body: string) => rawPost(agent, url, body);
  const fill = () => {
    while (sending < concurrency && queued.length > 0) {
      const { id, url, body } = queued.shift()!;
      sending += 1;
      void post(url, body)
        .catch(() => undefined)
        .then(() => {
          sending -= 1;
          unrecorded.push(id);
          record();
          fill();
          wakeUp();
        });
    }
  };
  const loop = (async () => {
    while (running) {
      const room = 4 * concurrency - sending - queued.length;
      if (room >= concurrency / 2) {
        const { rows } = await pool.query<{ id: string; url: string; body: string }>(
          `UPDATE floor_outbox o SET status = 'delivering',
                  lease_until = now() + interval '30 seconds'
           FROM (SELECT id FROM floor_outbox WHERE status = 'pending' AND next_attempt_at <= now()
                 ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
           WHERE o.id = due.id
           RETURNING o.id, o.url, o.body`,
          [room],
        );
        queued.push(...rows);
        fill();
        if (rows.length === room) continue;
      }
      if (woken) {
        woken = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();

  return {
    async stop() {
      running = false;
      wakeUp();
      await loop;
      await consumer.disconnect();
      while (sending > 0 || recording) await new Promise((resolve) => setTimeout(resolve, 10));
      agent.destroy();
      await pool.end();
    },
  };
}
