import {
  DEFAULT_NOTIFICATION_SETTINGS,
  copySettings,
  resolveEffectiveSettings,
  type DetectionNotificationConfig,
  type EffectiveSettings,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { silentLogger, type ControlPlaneLogger } from '../sql/sql-client';
import { type NotificationSettingsStore, type SettingsChange } from './notification-settings-store';
import { type SettingsChangeFeed } from './settings-change-feed';

/** What a cache subscriber hears: one entry changed, or everything was re-read. */
export type SettingsCacheChange = SettingsChange | { scope: 'all' };

export interface SettingsCacheOptions {
  readonly logger?: ControlPlaneLogger;
  /** Delay before retrying a refresh that failed (database unavailable). */
  readonly retryDelayMs?: number;
}

/**
 * Every notification setting in memory, kept current by the change feed: a saved change is
 * re-read and announced to subscribers within a round trip. Refreshes run one at a time, in
 * the order announced, so an older read never overwrites a newer one.
 */
export class SettingsCache {
  private globalSettings: NotificationSettings = copySettings(DEFAULT_NOTIFICATION_SETTINGS);
  private configs = new Map<string, DetectionNotificationConfig>();
  private readonly subscribers = new Set<(change: SettingsCacheChange) => void>();
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly logger: ControlPlaneLogger;

  constructor(
    private readonly store: NotificationSettingsStore,
    private readonly feed: SettingsChangeFeed,
    private readonly options: SettingsCacheOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
  }

  /** Listens first, then loads everything, so no change falls between the two. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.feed.start({
      onChange: (change) => this.enqueue(change),
      onResync: () => this.enqueue({ scope: 'all' }),
    });
    await this.reloadAll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.feed.stop();
    await this.queue;
  }

  get global(): NotificationSettings {
    return this.globalSettings;
  }

  detectionConfig(detectionId: string): DetectionNotificationConfig | undefined {
    return this.configs.get(detectionId);
  }

  /** Whether a detection follows the global settings (no custom configuration in force). */
  inheritsGlobal(detectionId: string): boolean {
    return (
      resolveEffectiveSettings(this.globalSettings, this.configs.get(detectionId)).source ===
      'global'
    );
  }

  effective(detectionId: string): EffectiveSettings {
    return resolveEffectiveSettings(this.globalSettings, this.configs.get(detectionId));
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  subscribe(subscriber: (change: SettingsCacheChange) => void): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** Resolves once every change announced so far has been applied. */
  async settled(): Promise<void> {
    await this.queue;
  }

  private enqueue(change: SettingsCacheChange): void {
    this.queue = this.queue.then(() => this.refresh(change));
  }

  private async refresh(change: SettingsCacheChange): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      try {
        switch (change.scope) {
          case 'global':
            this.globalSettings = await this.store.getGlobal();
            break;
          case 'detection':
            this.configs.set(
              change.detectionId,
              await this.store.getDetectionConfig(change.detectionId),
            );
            break;
          case 'all':
            await this.reloadAll();
            break;
        }
        this.publish(change);
        return;
      } catch (error) {
        this.logger.warn({ err: error, change }, 'settings refresh failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs ?? 1_000));
      }
    }
  }

  private async reloadAll(): Promise<void> {
    const [global, configs] = await Promise.all([
      this.store.getGlobal(),
      this.store.listDetectionConfigs(),
    ]);
    this.globalSettings = global;
    this.configs = new Map(configs.map((c) => [c.detectionId, c.config]));
  }

  private publish(change: SettingsCacheChange): void {
    for (const subscriber of this.subscribers) {
      try {
        subscriber(change);
      } catch (error) {
        this.logger.error({ err: error }, 'settings subscriber failed');
      }
    }
  }
}
