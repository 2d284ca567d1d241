import {
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createPgSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { anEventRecord } from '@vigil/contracts';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { detectionStateOf, indexReadModels } from '../../../test/support/index-read-models';
import { EXIT_FAILED, EXIT_OK, runCli } from './cli';

jest.setTimeout(60_000);

const T0 = Date.UTC(2025, 4, 1, 8, 0, 0);
const MINUTE = 60_000;

async function vigil(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: {
      DATABASE_URL: process.env.DATABASE_URL,
      ELASTICSEARCH_URL: process.env.ELASTICSEARCH_URL,
      VIGIL_INDEX_PREFIX: process.env.VIGIL_INDEX_PREFIX,
      APP_URL: 'https://vigil.example.com',
    },
  });
  return { code, stdout, stderr };
}

describe('vigil detection dry-run (CLI)', () => {
  let sql: SqlClient;

  beforeAll(async () => {
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    const providers = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    const { provider } = await providers.enroll({
      name: 'SOAR playbook',
      kind: 'automation',
      url: 'http://127.0.0.1:9/hook',
    });
    const settings = {
      ...DEFAULT_NOTIFICATION_SETTINGS,
      emailEnabled: false,
      frequency: 'immediate' as const,
      webhookEnabled: true,
      webhookProviderIds: [provider.id],
    };
    await new SqlNotificationSettingsStore(sql).saveGlobal(settings);
    const events = [1, 2, 3].map((n) =>
      anEventRecord({
        id: `evt-cli-${n}`,
        detection_id: 'det-cli',
        detection_name: 'Impossible travel',
        happened: T0 + n * MINUTE,
      }),
    );
    await indexReadModels({
      events,
      detectionStates: [
        {
          snapshot: detectionStateOf(events, { settings, at: T0 + 2 * MINUTE, count: 2 }),
          recordedAt: T0 + 3 * MINUTE,
        },
      ],
    });
  });

  afterAll(async () => {
    await sql?.close();
  });

  it('prints each channel and target with when or why not, and the payload it would send', async () => {
    const run = await vigil('detection', 'dry-run', 'det-cli');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toContain('What would be sent now about "Impossible travel" (det-cli)');
    expect(run.stdout).toContain('(event count 3), with the global settings (immediate)');
    expect(run.stdout).toContain('Webhooks: would send: Immediately');
    expect(run.stdout).toMatch(/SOAR playbook +would send +Immediately/);
    expect(run.stdout).toContain('"title": "Impossible travel: 1 new events"');
    expect(run.stdout).toContain('"previous_count": 2');
    expect(run.stdout).toContain(
      'Email: sends nothing: This channel is off in the settings in force.',
    );
  });

  it('prints the preview as JSON, decisions included', async () => {
    const run = await vigil('detection', 'dry-run', 'det-cli', '--json');
    expect(run.code).toBe(EXIT_OK);
    const preview = JSON.parse(run.stdout) as {
      channels: { channel: string; fires: boolean; reasonCode: string | null }[];
      dryRun: { webhook: { decision: { previousCount: number; currentCount: number } } };
    };
    expect(preview.channels.map((c) => [c.channel, c.fires, c.reasonCode])).toEqual([
      ['webhook', true, null],
      ['email', false, 'channel_off'],
    ]);
    expect(preview.dryRun.webhook.decision).toMatchObject({ previousCount: 2, currentCount: 3 });
  });

  it('says so for an unknown detection', async () => {
    const run = await vigil('detection', 'dry-run', 'det-nope');
    expect(run.code).toBe(EXIT_FAILED);
    expect(run.stderr).toBe('error: No such detection\n');
  });
});
