import { type Command } from 'commander';
import { loadConfig } from '@vigil/config';
import {
  SqlNotificationSettingsStore,
  WebhookProviderService,
  openSqlClient,
  runMigrations,
} from '@vigil/control-plane';
import { openEventReadModel } from '@vigil/search';
import {
  PreviewDetectionNotifications,
  type DetectionNotificationPreview,
  type PreviewChannel,
  type PreviewPayload,
} from '@vigil/workspace';
import type { CliIo } from './cli-io';
import { formatTable } from './format';

/** `vigil detection dry-run <id>`: what would be sent about a detection now. */
export function registerDetectionCommands(program: Command, io: CliIo): void {
  const detection = program.command('detection').description('Look into detections');
  detection
    .command('dry-run')
    .description(
      'What would be sent about a detection now: each channel and target, whether it would ' +
        'fire and when, or why not, with the payloads (computed by the notification rules ' +
        'themselves; nothing is sent)',
    )
    .argument('<id>', 'the detection id')
    .option('--json', 'print the preview as JSON, decisions and payloads included')
    .action(async (id: string, options: { json?: boolean }) => {
      const config = loadConfig(['database', 'elasticsearch', 'links', 'runtime'], io.env);
      const sql = await openSqlClient({
        databaseUrl: config.database.DATABASE_URL,
        poolSize: 2,
        dataDir: config.database.VIGIL_DATA_DIR,
        applicationName: 'vigil-cli',
      });
      try {
        await runMigrations(sql);
        const readModel = await openEventReadModel({
          elasticsearchUrl: config.elasticsearch.ELASTICSEARCH_URL,
          indexPrefix: config.elasticsearch.VIGIL_INDEX_PREFIX,
          sql,
        });
        try {
          const preview = await new PreviewDetectionNotifications(
            readModel.value,
            new SqlNotificationSettingsStore(sql),
            new WebhookProviderService(sql),
            { appUrl: config.links.APP_URL },
          ).execute({ detectionId: id, now: Date.now() });
          io.stdout.write(
            options.json ? `${JSON.stringify(preview, null, 2)}\n` : formatPreview(preview),
          );
        } finally {
          await readModel.close();
        }
      } finally {
        await sql.close();
      }
    });
}

const utc = (at: number) => `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

const CHANNEL_TITLES: Readonly<Record<PreviewChannel['channel'], string>> = {
  webhook: 'Webhooks',
  email: 'Email',
  digest: 'Email digest (Batch)',
};

function indented(text: string, by = '    '): string[] {
  return text.split('\n').map((line) => `${by}${line}`);
}

function payloadLines(label: string, payload: PreviewPayload): string[] {
  const body =
    payload.kind === 'webhook'
      ? JSON.stringify(JSON.parse(payload.body) as unknown, null, 2)
      : `Subject: ${payload.subject}\n\n${payload.text}`;
  return ['', `  ${label}:`, ...indented(body)];
}

function channelLines(channel: PreviewChannel): string[] {
  const verdict = channel.fires
    ? `would send: ${channel.summary}`
    : `sends nothing: ${channel.summary}`;
  const lines = ['', `${CHANNEL_TITLES[channel.channel]}: ${verdict}`];
  if (channel.targets.length > 0) {
    const table = formatTable(
      ['TARGET', 'NOW', 'WHEN, OR WHY NOT'],
      channel.targets.map((target) => [
        target.name ?? `(no longer enrolled) ${target.id}`,
        target.sends ? 'would send' : 'nothing',
        target.sends
          ? channel.summary
          : !channel.fires && target.reasonCode === channel.reasonCode
            ? 'for the reason above'
            : (target.reason ?? ''),
      ]),
    );
    lines.push(...indented(table, '  '));
  }
  for (const target of channel.targets) {
    if (target.payload !== null) {
      lines.push(...payloadLines(`Payload for ${target.name ?? target.id}`, target.payload));
    }
  }
  if (channel.payload !== null) {
    const label =
      channel.channel === 'digest'
        ? 'This detection in the digest (text part)'
        : 'The email (text part)';
    lines.push(...payloadLines(label, channel.payload));
  }
  return lines;
}

/** The preview for a terminal: a paragraph per channel, a table of its targets, the payloads. */
export function formatPreview(preview: DetectionNotificationPreview): string {
  const heading = `What would be sent now about "${preview.detectionName}" (${preview.detectionId})`;
  if (preview.recordedAt === null) {
    return [
      heading,
      'No notification state recorded yet: the processor has not recorded one for this',
      'detection, or it has not reached the read model (it follows within seconds).',
      '',
    ].join('\n');
  }
  const settings =
    preview.settingsSource === 'custom' ? 'its own notification settings' : 'the global settings';
  return [
    heading,
    `Computed at ${utc(preview.at)} from the state the processor recorded at ${utc(preview.recordedAt)}`,
    `(event count ${preview.count ?? 0}), with ${settings} (${preview.frequency}). The read model`,
    'follows the processor within seconds: a notification sent in the last seconds may not show yet.',
    ...preview.channels.flatMap(channelLines),
    '',
    'The delivery id in the payloads is a placeholder: the notifier assigns the real one.',
    '',
  ].join('\n');
}
