/**
 * One dependency an app needs right now (a database, the log, the schema registry, a search
 * server, an SMTP relay) and how to tell it answers. `check` rejects when it does not; it should
 * give up when `signal` aborts.
 */
export interface ReadinessCheck {
  /** A fixed name: postgresql, kafka, schema-registry, elasticsearch, smtp, in-process-log. */
  readonly dependency: string;
  check(signal: AbortSignal): Promise<void>;
  /** How long an answer is reused (default: the readiness default, a few seconds). */
  readonly cacheMs?: number;
}
