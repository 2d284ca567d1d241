import {
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createApiTokenService,
  type SecretBox,
  type SqlClient,
  type WebhookTargetPolicy,
} from '@vigil/control-plane';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationSettings,
} from '@vigil/notification-policy';
import type { DemoScenario } from './sample-data';

export const DEMO_PROVIDER_NAME = 'Vigil local receiver (demo)';
export const DEMO_RECIPIENTS = ['security-team@example.com'];

export interface DemoSetupOptions {
  /** The built-in receiver's URL for the demo's provider. */
  readonly receiverUrl: string;
  /** The webhook target policy the apps use, so enrollment accepts the receiver. */
  readonly policy: WebhookTargetPolicy;
  /** Seals the provider's secret at rest, as the apps do. */
  readonly secrets?: SecretBox;
}

export interface DemoSetup {
  readonly token: string;
  readonly providerId: string;
  /** The provider's signing secret, for the receiver to verify signatures. */
  readonly secret: string;
}

/**
 * What the demo needs in the control plane, through the same services the web application
 * and the CLI use: an ingest token, a webhook provider pointing at the local receiver (the
 * existing one, with a fresh secret, when the demo ran before), global settings that email the
 * demo recipients in one-minute batches, and per-detection settings so every frequency mode
 * shows.
 */
export async function prepareDemo(
  sql: SqlClient,
  scenario: DemoScenario,
  options: DemoSetupOptions,
): Promise<DemoSetup> {
  const providers = new WebhookProviderService(sql, {
    policy: options.policy,
    secrets: options.secrets,
  });
  const existing = (await providers.list()).find(
    (p) => p.name === DEMO_PROVIDER_NAME && p.url === options.receiverUrl,
  );
  const { provider, secret } =
    existing === undefined
      ? await providers.enroll({
          name: DEMO_PROVIDER_NAME,
          kind: 'custom',
          url: options.receiverUrl,
        })
      : await providers.rotateSecret(existing.id);

  const settings = new SqlNotificationSettingsStore(sql);
  const current = await settings.getGlobal();
  const global: NotificationSettings = {
    ...DEFAULT_NOTIFICATION_SETTINGS,
    ...current,
    emailEnabled: true,
    recipients: [...new Set([...current.recipients, ...DEMO_RECIPIENTS])],
    frequency: 'batch',
    batchWindowMinutes: 1,
    webhookEnabled: true,
    webhookProviderIds: [...new Set([...current.webhookProviderIds, provider.id])],
    silence: { kind: 'none' },
  };
  await settings.saveGlobal(global);
  for (const detection of scenario.detections) {
    if (detection.frequency === 'batch') continue;
    await settings.saveDetectionConfig(detection.id, {
      useCustom: true,
      custom: {
        ...global,
        recipients: [...DEMO_RECIPIENTS],
        webhookProviderIds: [provider.id],
        frequency: detection.frequency,
        threshold: detection.threshold,
      },
    });
  }

  const tokens = createApiTokenService(sql);
  const { value } = await tokens.createToken({
    name: `demo ${new Date().toISOString().slice(0, 16)}`,
    permissions: { detection: 'write' },
    expiresInDays: 1,
    createdBy: 'demo',
  });
  await tokens.drain();
  return { token: value, providerId: provider.id, secret };
}
