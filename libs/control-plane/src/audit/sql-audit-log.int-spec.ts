import { createPgSqlClient } from '../sql/pg-sql-client';
import { openPgliteSqlClient } from '../sql/pglite-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { operatorActor, userActor, type AuditContext } from './audit-event';
import { SqlAuditLog } from './sql-audit-log';

// Opening PGlite and running every migration takes seconds on a busy machine.
jest.setTimeout(60_000);

const DAY = 24 * 60 * 60 * 1000;
const ada: AuditContext = {
  actor: userActor({ id: '7d0b0cbe-55a3-4a6e-9d3c-54b1b1d3f3c1', email: 'ada@example.com' }),
  address: '198.51.100.7',
  requestId: 'req-ada',
};
const ops: AuditContext = { actor: operatorActor('root') };

describe.each([
  ['PostgreSQL', () => createPgSqlClient(process.env.DATABASE_URL!, 2)],
  ['PGlite', () => openPgliteSqlClient('memory://')],
])('SqlAuditLog on %s', (_name, open) => {
  let sql: SqlClient;
  let audit: SqlAuditLog;
  const base = new Date('2026-01-10T12:00:00.000Z');

  beforeAll(async () => {
    sql = await open();
    await runMigrations(sql);
    audit = new SqlAuditLog(sql);
    await sql.exec(
      "SET vigil.audit_retention = 'on'; DELETE FROM audit_events; RESET vigil.audit_retention",
    );
    const at = (days: number) => new Date(base.getTime() + days * DAY);
    await audit.append({ action: 'user.sign_in.succeeded', context: ada, occurredAt: at(0) });
    await audit.append({
      action: 'user.sign_in.failed',
      context: {
        actor: { type: 'user', id: null, label: 'eve@example.com' },
        address: '::ffff:203.0.113.5',
      },
      occurredAt: at(1),
    });
    await audit.append({
      action: 'settings.global_changed',
      context: ada,
      target: { type: 'settings', id: 'global' },
      details: { before: { frequency: 'Batch' }, after: { frequency: 'Immediate' } },
      occurredAt: at(2),
    });
    await audit.append({
      action: 'provider.enrolled',
      context: ops,
      target: { type: 'webhook_provider', id: 'p-1' },
      details: { name: 'Tines', secret: 'whsec_abc', nested: { password: 'x', url: 'https://h' } },
      occurredAt: at(3),
    });
    await audit.append({
      action: 'token.deleted',
      context: { ...ops, address: 'not an ip' },
      occurredAt: at(4),
    });
  });
  afterAll(() => sql.close());

  it('lists newest first with actor, address, request id, target and details', async () => {
    const { events, nextCursor } = await audit.list({});
    expect(events.map((e) => e.action)).toEqual([
      'token.deleted',
      'provider.enrolled',
      'settings.global_changed',
      'user.sign_in.failed',
      'user.sign_in.succeeded',
    ]);
    expect(nextCursor).toBeNull();
    expect(events[2]).toEqual({
      id: expect.any(String),
      occurredAt: new Date('2026-01-12T12:00:00.000Z'),
      actor: ada.actor,
      action: 'settings.global_changed',
      target: { type: 'settings', id: 'global' },
      address: '198.51.100.7',
      requestId: 'req-ada',
      details: { before: { frequency: 'Batch' }, after: { frequency: 'Immediate' } },
    });
    expect(events[0].address).toBeNull();
  });

  it('never stores a secret in the details', async () => {
    const { events } = await audit.list({ action: 'provider.enrolled' });
    expect(events[0].details).toEqual({
      name: 'Tines',
      secret: '[redacted]',
      nested: { password: '[redacted]', url: 'https://h' },
    });
  });

  it('filters by time, actor, action or prefix, and target', async () => {
    const actions = async (filter: Parameters<SqlAuditLog['list']>[0]) =>
      (await audit.list(filter)).events.map((e) => e.action);
    expect(await actions({ since: new Date('2026-01-12T00:00:00Z') })).toEqual([
      'token.deleted',
      'provider.enrolled',
      'settings.global_changed',
    ]);
    expect(await actions({ until: new Date('2026-01-11T12:00:00Z') })).toEqual([
      'user.sign_in.succeeded',
    ]);
    expect(await actions({ actor: 'ada@example.com' })).toEqual([
      'settings.global_changed',
      'user.sign_in.succeeded',
    ]);
    expect(await actions({ action: 'user.sign_in' })).toEqual([
      'user.sign_in.failed',
      'user.sign_in.succeeded',
    ]);
    expect(await actions({ action: 'user.' })).toHaveLength(2);
    expect(await actions({ action: 'user.sign_in.failed' })).toEqual(['user.sign_in.failed']);
    expect(await actions({ targetType: 'webhook_provider', targetId: 'p-1' })).toEqual([
      'provider.enrolled',
    ]);
    await expect(audit.list({ action: "x' OR 1=1" })).rejects.toMatchObject({ field: 'action' });
    await expect(audit.list({ limit: 0 })).rejects.toMatchObject({ field: 'limit' });
    await expect(audit.list({ cursor: 'garbage' })).rejects.toMatchObject({ field: 'cursor' });
  });

  it('pages with a cursor without skipping or repeating', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await audit.list({ limit: 2, cursor });
      seen.push(...page.events.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const all = (await audit.list({})).events.map((e) => e.id);
    expect(seen).toEqual(all);
  });

  it('refuses every UPDATE, DELETE and TRUNCATE of the table', async () => {
    for (const statement of [
      "UPDATE audit_events SET actor_label = 'someone else'",
      'DELETE FROM audit_events',
      'TRUNCATE audit_events',
    ]) {
      await expect(sql.exec(statement)).rejects.toThrow(/audit_events is append-only/);
    }
    expect((await audit.list({})).events).toHaveLength(5);
  });

  it('purges only events older than the retention period', async () => {
    await audit.append({ action: 'token.created', context: ops });
    const removed = await audit.purge(1);
    expect(removed).toBe(5);
    expect((await audit.list({})).events.map((e) => e.action)).toEqual(['token.created']);
    await expect(audit.purge(0)).rejects.toThrow(/at least 1/);
  });
});
