import { type SettingsChange } from './notification-settings-store';

export interface SettingsChangeListener {
  onChange(change: SettingsChange): void;
  /** Changes may have been missed (the feed reconnected): re-read everything. */
  onResync(): void;
}

/** Announcements of settings changes. The real adapter is PgSettingsChangeFeed (LISTEN). */
export interface SettingsChangeFeed {
  /** Resolves once listening, so a load that follows it misses no change. */
  start(listener: SettingsChangeListener): Promise<void>;
  stop(): Promise<void>;
}
