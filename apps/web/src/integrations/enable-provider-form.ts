import { type WebhookProviderView } from '@vigil/control-plane';

/** The enable/recover form as typed: whether to recover, and since when (UTC, datetime-local). */
export interface EnableProviderFormValues {
  readonly recover: boolean;
  readonly since: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** `2026-03-01T09:05` in UTC: what a datetime-local input takes, to the minute. */
export function datetimeLocalOf(at: Date): string {
  return at.toISOString().slice(0, 16);
}

/**
 * Where recovering starts unless changed: when the provider began failing (its first dead
 * deliveries), else when it was disabled, else a day ago.
 */
export function enableFormValuesOf(
  provider: WebhookProviderView,
  now: number,
): EnableProviderFormValues {
  const since = provider.health.failingSince ?? provider.disabled?.at ?? new Date(now - DAY_MS);
  return { recover: provider.disabled === undefined, since: datetimeLocalOf(since) };
}

export function readEnableForm(body: Record<string, unknown>): EnableProviderFormValues {
  return {
    recover: body.recover === 'yes',
    since: typeof body.since === 'string' ? body.since.trim() : '',
  };
}

/** The time typed, read as UTC; an Invalid Date (refused by the use case) when it is not one. */
export function recoverSinceOf(values: EnableProviderFormValues): Date | undefined {
  if (!values.recover) return undefined;
  return LOCAL_TIME.test(values.since) ? new Date(`${values.since}Z`) : new Date(Number.NaN);
}
