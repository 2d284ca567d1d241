import { Client, type Notification } from 'pg';
import { silentLogger, type ControlPlaneLogger } from '../sql/sql-client';
import { SETTINGS_CHANNEL, type SettingsChange } from './notification-settings-store';
import { type SettingsChangeFeed, type SettingsChangeListener } from './settings-change-feed';

export interface PgSettingsChangeFeedOptions {
  readonly logger?: ControlPlaneLogger;
  /** First and largest delay between reconnection attempts. */
  readonly minReconnectDelayMs?: number;
  readonly maxReconnectDelayMs?: number;
}

/**
 * LISTENs on `vigil_settings` over a dedicated connection (a pooled one would be handed to
 * other queries and lose the subscription). A lost connection is re-opened with exponential
 * backoff and the listener is told to resync, since NOTIFYs sent meanwhile are gone.
 */
export class PgSettingsChangeFeed implements SettingsChangeFeed {
  private client: Client | null = null;
  private listener: SettingsChangeListener | null = null;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private readonly logger: ControlPlaneLogger;

  constructor(
    private readonly url: string,
    private readonly options: PgSettingsChangeFeedOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
  }

  async start(listener: SettingsChangeListener): Promise<void> {
    this.listener = listener;
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.url,
      application_name: 'vigil-settings-listener',
      // Detects a silently dropped connection (no NOTIFY would ever arrive otherwise).
      keepAlive: true,
    });
    client.on('notification', (message) => this.deliver(message));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${SETTINGS_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      // Stopped while connecting: nobody would end this connection later.
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.attempt = 0;
  }

  private deliver(message: Notification): void {
    if (message.channel !== SETTINGS_CHANNEL || !this.listener) return;
    const change = parseChange(message.payload);
    if (change) this.listener.onChange(change);
    else this.listener.onResync();
  }

  private lost(client: Client, error: Error): void {
    if (this.stopped || this.client !== client) return;
    this.client = null;
    this.logger.warn({ err: error }, 'settings listener disconnected; reconnecting');
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const min = this.options.minReconnectDelayMs ?? 200;
    const max = this.options.maxReconnectDelayMs ?? 10_000;
    const delay = Math.min(max, min * 2 ** this.attempt);
    this.attempt++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stopped) return;
      this.connect()
        .then(() => {
          this.logger.info({}, 'settings listener reconnected');
          this.listener?.onResync();
        })
        .catch((error: unknown) => {
          this.logger.warn(
            { err: error, attempt: this.attempt },
            'settings listener reconnect failed',
          );
          this.scheduleReconnect();
        });
    }, delay);
  }
}

/** A NOTIFY payload; null when it is not one we know, which calls for a resync. */
export function parseChange(payload: string | undefined): SettingsChange | null {
  try {
    const value = JSON.parse(payload ?? '') as Partial<{ scope: string; detectionId: unknown }>;
    if (value.scope === 'global') return { scope: 'global' };
    if (value.scope === 'detection' && typeof value.detectionId === 'string') {
      return { scope: 'detection', detectionId: value.detectionId };
    }
  } catch {
    // An unknown payload still means something changed.
  }
  return null;
}
