import { randomUUID } from 'node:crypto';
import {
  SqlAuditLog,
  SqlDeliveryLog,
  SqlDeliveryStore,
  WebhookProviderService,
  createPgSqlClient,
  operatorActor,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from './cli';
import { operatorName } from './with-control-plane';

async function vigil(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { DATABASE_URL: process.env.DATABASE_URL },
  });
  return { code, stdout, stderr };
}

let sql: SqlClient;

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
  await runMigrations(sql);
});
afterAll(() => sql.close());

const providers = () =>
  new WebhookProviderService(sql, {
    policy: { allowPrivate: false, allowlist: [] },
    checkTarget: async () => undefined,
  });

async function aProvider(name = `SOAR ${randomUUID().slice(0, 8)}`): Promise<string> {
  const { provider } = await providers().enroll({
    name,
    kind: 'custom',
    url: `https://${randomUUID()}.example.com/hook`,
  });
  return provider.id;
}

/** A delivery to the provider in this state, created `hoursAgo` before now. */
async function aDelivery(
  providerId: string,
  status: 'pending' | 'dead',
  hoursAgo = 0,
): Promise<string> {
  const id = randomUUID();
  await new SqlDeliveryStore(sql).insert(sql, [
    {
      id,
      notificationId: randomUUID(),
      kind: 'detection',
      channel: 'webhook',
      target: providerId,
      subjectId: `det-${randomUUID()}`,
      payload: { hello: 'world' },
    },
  ]);
  await sql.query(
    `UPDATE deliveries SET status = $2,
       next_attempt_at = CASE WHEN $2 = 'pending' THEN next_attempt_at END,
       created_at = now() - $3 * interval '1 hour'
     WHERE id = $1`,
    [id, status, hoursAgo],
  );
  return id;
}

const statusOf = async (id: string) => (await new SqlDeliveryLog(sql).find(id))?.status;
const operator = { actor: operatorActor('someone else') };

describe('vigil providers (CLI) on PostgreSQL', () => {
  it('lists each provider with its destination and state', async () => {
    const healthy = await aProvider('Healthy');
    const failing = await aProvider('Failing');
    const disabled = await aProvider('Down');
    await sql.query(
      `UPDATE webhook_providers
       SET failing_since = '2026-03-01T09:00:00Z', dead_in_a_row = 4 WHERE id = $1`,
      [failing],
    );
    await providers().disable(disabled, 'Every attempt has failed since Monday.', operator);

    const run = await vigil('providers', 'list');
    expect(run.code).toBe(EXIT_OK);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+DESTINATION\s+STATE$/);
    const line = (id: string) => lines.find((l) => l.startsWith(id)) ?? '';
    expect(line(healthy)).toMatch(/Healthy\s+webhook\s+enabled$/);
    expect(line(failing)).toMatch(/failing since 2026-03-01 09:00 UTC, 4 dead in a row$/);
    expect(line(disabled)).toMatch(
      /disabled since \d{4}-\d\d-\d\d \d\d:\d\d UTC: Every attempt has failed since Monday\.$/,
    );

    const json = await vigil('providers', 'list', '--json');
    const listed = JSON.parse(json.stdout) as { id: string; disabled?: { reason: string } }[];
    expect(listed.find((p) => p.id === disabled)?.disabled?.reason).toBe(
      'Every attempt has failed since Monday.',
    );
  });

  it('disables a provider, skipping its pending deliveries, audited as the operator', async () => {
    const provider = await aProvider('Maintenance');
    const pending = await aDelivery(provider, 'pending');

    const run = await vigil('providers', 'disable', provider, '--reason', 'Planned maintenance');
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toMatch(
      new RegExp(
        `^Provider ${provider} "Maintenance" is disabled since .* UTC: Planned maintenance\\.`,
      ),
    );
    expect(await statusOf(pending)).toBe('skipped');
    const { events } = await new SqlAuditLog(sql).list({
      action: 'provider.disabled',
      targetId: provider,
    });
    expect(events[0]).toMatchObject({
      actor: { type: 'operator', label: operatorName() },
      details: { reason: 'Planned maintenance', skippedPending: 1 },
    });

    const again = await vigil('providers', 'disable', provider);
    expect(again.code).toBe(EXIT_OK);
    expect(again.stdout).toContain(': Planned maintenance.');
  });

  it('disables with a default reason naming the operator, and enables again', async () => {
    const provider = await aProvider('Chat');
    expect((await vigil('providers', 'disable', provider)).stdout).toContain(
      `: Disabled by ${operatorName()}.`,
    );

    const run = await vigil('providers', 'enable', provider);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toBe(`Provider ${provider} "Chat" is enabled.\n`);
    expect((await providers().listDisabled()).map((p) => p.id)).not.toContain(provider);
    const { events } = await new SqlAuditLog(sql).list({
      action: 'provider.enabled',
      targetId: provider,
    });
    expect(events[0].actor).toMatchObject({ type: 'operator', label: operatorName() });
  });

  it('recovers a provider: enables it and queues again what died or was skipped since the time', async () => {
    const provider = await aProvider('Paging');
    const dead = await aDelivery(provider, 'dead', 2);
    const older = await aDelivery(provider, 'dead', 48);
    const held = await aDelivery(provider, 'pending', 1);
    await providers().disable(provider, 'Down', operator);

    const run = await vigil('providers', 'recover', provider, '--since', '24h');
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toMatch(
      new RegExp(
        `^Provider ${provider} "Paging" is enabled; 2 deliveries since .* UTC queued again\\.\\n$`,
      ),
    );
    expect(await statusOf(dead)).toBe('pending');
    expect(await statusOf(held)).toBe('pending');
    expect(await statusOf(older)).toBe('dead');
    const { events } = await new SqlAuditLog(sql).list({
      action: 'deliveries.recovered',
      targetId: provider,
    });
    expect(events[0]).toMatchObject({
      actor: { type: 'operator', label: operatorName() },
      details: { recovered: 2 },
    });
  });

  it('recovers every disabled provider with --all-disabled', async () => {
    const first = await aProvider('First');
    const second = await aProvider('Second');
    const firstDead = await aDelivery(first, 'dead', 1);
    const secondDead = await aDelivery(second, 'dead', 1);
    await providers().disable(first, 'Down', operator);
    await providers().disable(second, 'Down', operator);

    const run = await vigil('providers', 'recover', '--all-disabled', '--since', '2026-01-01');
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toContain(`Provider ${first} "First" is enabled; 1 delivery since`);
    expect(run.stdout).toContain(`Provider ${second} "Second" is enabled; 1 delivery since`);
    expect(run.stdout).toMatch(/queued again in all\.\n$/);
    expect(await statusOf(firstDead)).toBe('pending');
    expect(await statusOf(secondDead)).toBe('pending');
    expect(await providers().listDisabled()).toEqual([]);

    const none = await vigil('providers', 'recover', '--all-disabled', '--since', '1h');
    expect(none).toMatchObject({ code: EXIT_OK, stdout: 'No disabled providers.\n' });
  });

  it('names the option of bad input, and fails for an unknown provider', async () => {
    const provider = await aProvider();
    const badTime = await vigil('providers', 'recover', provider, '--since', 'yesterday');
    expect(badTime.code).toBe(EXIT_USAGE);
    expect(badTime.stderr).toContain("option '--since <time>' argument 'yesterday' is invalid");

    const future = await vigil('providers', 'recover', provider, '--since', '2999-01-01');
    expect(future.code).toBe(EXIT_USAGE);
    expect(future.stderr).toContain('--since: the time is in the future');
    expect(future.stderr).toContain('in the future');

    const noSince = await vigil('providers', 'recover', provider);
    expect(noSince.code).toBe(EXIT_USAGE);
    expect(noSince.stderr).toContain("required option '--since <time>' not specified");

    for (const which of [[], [provider, '--all-disabled']]) {
      const run = await vigil('providers', 'recover', ...which, '--since', '1h');
      expect(run.code).toBe(EXIT_USAGE);
      expect(run.stderr).toContain('give either a provider id or --all-disabled');
    }

    for (const command of ['disable', 'enable']) {
      const unknown = await vigil('providers', command, randomUUID());
      expect(unknown.code).toBe(EXIT_FAILED);
      expect(unknown.stderr).toContain('No such webhook provider');
    }
  });
});
