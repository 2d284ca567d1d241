import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { operatorActor } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { InvalidNotificationSettingsError } from './invalid-notification-settings-error';
import { SETTINGS_CHANNEL, type SettingsChange } from './notification-settings-store';
import { PgSettingsChangeFeed } from './pg-settings-change-feed';
import { SettingsCache, type SettingsCacheChange } from './settings-cache';
import { SqlNotificationSettingsStore } from './sql-notification-settings-store';

const url = () => process.env.DATABASE_URL!;

function settings(overrides: Partial<NotificationSettings> = {}): NotificationSettings {
  return {
    ...DEFAULT_NOTIFICATION_SETTINGS,
    webhookEnabled: true,
    webhookProviderIds: ['provider-1'],
    frequency: 'immediate',
    ...overrides,
  };
}

async function until<T>(check: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('SqlNotificationSettingsStore', () => {
  let sql: SqlClient;
  let store: SqlNotificationSettingsStore;
  let listener: Client;
  const heard: SettingsChange[] = [];

  beforeAll(async () => {
    sql = createPgSqlClient(url(), 2);
    await runMigrations(sql);
    store = new SqlNotificationSettingsStore(sql);
    listener = new Client({ connectionString: url() });
    await listener.connect();
    listener.on('notification', (m) => heard.push(JSON.parse(m.payload!) as SettingsChange));
    await listener.query(`LISTEN ${SETTINGS_CHANNEL}`);
  });

  afterAll(async () => {
    await listener.end();
    await sql.close();
  });

  it('reads the defaults of SPEC §2.5 before any save, then what was saved', async () => {
    await sql.query('DELETE FROM notification_settings_global');
    expect(await store.getGlobal()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);

    await store.saveGlobal(settings({ frequency: 'batch', batchWindowMinutes: 15 }));
    expect(await store.getGlobal()).toEqual(
      settings({ frequency: 'batch', batchWindowMinutes: 15 }),
    );
  });

  it('keeps one global row however often it is saved', async () => {
    await store.saveGlobal(settings());
    await store.saveGlobal(settings({ maxEventsPerNotification: 50 }));
    const { rows } = await sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM notification_settings_global',
    );
    expect(rows).toEqual([{ n: 1 }]);
    expect((await store.getGlobal()).maxEventsPerNotification).toBe(50);
  });

  it('lets an unknown detection inherit, and stores custom configurations', async () => {
    const id = `det-${randomUUID()}`;
    expect(await store.getDetectionConfig(id)).toEqual({ useCustom: false, custom: null });

    const custom = settings({ silence: { kind: 'snoozed', until: Date.UTC(2030, 0, 1) } });
    await store.saveDetectionConfig(id, { useCustom: true, custom });
    expect(await store.getDetectionConfig(id)).toEqual({ useCustom: true, custom });

    await store.saveDetectionConfig(id, { useCustom: false, custom });
    expect(await store.getDetectionConfig(id)).toEqual({ useCustom: false, custom: null });
    const listed = await store.listDetectionConfigs();
    expect(listed.find((c) => c.detectionId === id)).toMatchObject({
      config: { useCustom: false, custom: null },
      updatedAt: expect.any(Date),
    });
  });

  it('refuses invalid settings, naming the field, and stores nothing', async () => {
    const id = `det-${randomUUID()}`;
    const error: unknown = await store
      .saveDetectionConfig(id, {
        useCustom: true,
        custom: settings({ frequency: 'threshold', threshold: null }),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidNotificationSettingsError);
    expect((error as InvalidNotificationSettingsError).errors).toEqual([
      expect.objectContaining({ field: 'threshold' }),
    ]);
    expect(await store.getDetectionConfig(id)).toEqual({ useCustom: false, custom: null });
  });

  it('announces every save on the settings channel', async () => {
    const id = `det-${randomUUID()}`;
    heard.length = 0;
    await store.saveGlobal(settings());
    await store.saveDetectionConfig(id, { useCustom: true, custom: settings() });
    await until(() => (heard.length >= 2 ? true : undefined));
    expect(heard).toEqual([{ scope: 'global' }, { scope: 'detection', detectionId: id }]);
  });

  it('records a save’s audit event with it, and none for a refused save', async () => {
    const id = `det-${randomUUID()}`;
    const requestId = `req-${randomUUID()}`;
    const audit = (after: unknown) => ({
      action: 'settings.detection_changed' as const,
      context: { actor: operatorActor('ops'), requestId },
      target: { type: 'detection', id },
      details: { before: null, after },
    });
    const refused = {
      useCustom: true,
      custom: settings({ frequency: 'threshold', threshold: null }),
    };
    await expect(store.saveDetectionConfig(id, refused, audit(refused))).rejects.toBeInstanceOf(
      InvalidNotificationSettingsError,
    );
    const saved = { useCustom: true, custom: settings() };
    await store.saveDetectionConfig(id, saved, audit(saved));
    await store.saveGlobal(settings(), {
      ...audit(null),
      action: 'settings.global_changed',
      target: { type: 'settings', id: 'global' },
    });
    const { events } = await new SqlAuditLog(sql).list({ actor: 'ops', limit: 500 });
    expect(
      events.filter((e) => e.requestId === requestId).map((e) => [e.action, e.target?.id]),
    ).toEqual([
      ['settings.global_changed', 'global'],
      ['settings.detection_changed', id],
    ]);
  });
});

describe('SettingsCache over LISTEN/NOTIFY', () => {
  let sql: SqlClient;
  let store: SqlNotificationSettingsStore;
  let cache: SettingsCache;
  const changes: SettingsCacheChange[] = [];

  beforeAll(async () => {
    sql = createPgSqlClient(url(), 2);
    await runMigrations(sql);
    store = new SqlNotificationSettingsStore(sql);
    await store.saveGlobal(settings({ recipients: [] }));
    cache = new SettingsCache(
      store,
      new PgSettingsChangeFeed(url(), { minReconnectDelayMs: 50, maxReconnectDelayMs: 200 }),
      { retryDelayMs: 50 },
    );
    await cache.start();
    cache.subscribe((change) => changes.push(change));
  });

  afterAll(async () => {
    await cache.stop();
    await sql.close();
  });

  it('starts with everything stored and follows later saves', async () => {
    const id = `det-${randomUUID()}`;
    expect(cache.effective(id)).toEqual({
      settings: settings({ recipients: [] }),
      source: 'global',
    });

    const custom = settings({ silence: { kind: 'disabled' } });
    await store.saveDetectionConfig(id, { useCustom: true, custom });
    await until(() => (cache.effective(id).source === 'custom' ? true : undefined));
    expect(cache.effective(id)).toEqual({ settings: custom, source: 'custom' });
    expect(changes).toContainEqual({ scope: 'detection', detectionId: id });

    await store.saveGlobal(settings({ maxEventsPerNotification: 7 }));
    await until(() => (cache.global.maxEventsPerNotification === 7 ? true : undefined));
    expect(changes).toContainEqual({ scope: 'global' });
  });

  it('reconnects after its connection is killed and re-reads what it missed', async () => {
    const admin = createPgSqlClient(url(), 1);
    try {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'vigil-settings-listener' AND datname = current_database()`,
      );
    } finally {
      await admin.close();
    }
    // Saved while the listener may be down: only the resync can bring it in.
    await store.saveGlobal(settings({ maxEventsPerNotification: 9 }));
    await until(() => (cache.global.maxEventsPerNotification === 9 ? true : undefined));
    await until(() => (changes.some((c) => c.scope === 'all') ? true : undefined));
  });
});
