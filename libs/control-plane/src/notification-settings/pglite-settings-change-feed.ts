import { type EmbeddedSqlClient } from '../sql/pglite-sql-client';
import { SETTINGS_CHANNEL } from './notification-settings-store';
import { parseChange } from './pg-settings-change-feed';
import { type SettingsChangeFeed, type SettingsChangeListener } from './settings-change-feed';

/**
 * LISTENs on `vigil_settings` in the embedded database. Its single connection is the one every
 * writer of the process uses, so a committed NOTIFY always arrives and there is no connection
 * to lose: unlike PgSettingsChangeFeed it never needs a resync.
 */
export class PgliteSettingsChangeFeed implements SettingsChangeFeed {
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly sql: EmbeddedSqlClient) {}

  async start(listener: SettingsChangeListener): Promise<void> {
    await this.stop();
    this.unlisten = await this.sql.listen(SETTINGS_CHANNEL, (payload) => {
      const change = parseChange(payload);
      if (change) listener.onChange(change);
      else listener.onResync();
    });
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = null;
    // The database may already be closed, which ends the subscription as well.
    await unlisten?.().catch(() => undefined);
  }
}
