/** PagerDuty Events API v2 (developer.pagerduty.com, "Send an Alert Event" and "Overview"). */
export const PAGERDUTY_LIMITS = {
  /** `routing_key`: "the 32 character Integration Key"; the API refuses non-alphanumeric keys. */
  routingKeyLength: 32,
  /** `dedup_key`: "The maximum permitted length of this property is 255 characters." */
  dedupKey: 255,
  /** `payload.summary`: "The maximum permitted length of this property is 1024 characters." */
  summary: 1024,
  /** "Events API payloads are limited to 512 KB" (counted here as 512,000 bytes). */
  payloadBytes: 512_000,
} as const;

/** What Vigil stays within, so that any notification renders far below payloadBytes. */
export const PAGERDUTY_RENDER_LIMITS = {
  /** `payload.source`, `component` and `group`: no documented limit; these are labels. */
  label: 255,
  /** Ids in custom_details; a longer id is cut (no real id is this long). */
  id: 1024,
  /** Event ids listed in custom_details, newest first: at most this many, in at most idsBytes. */
  eventIds: 1000,
  eventIdsBytes: 65_536,
  sources: 50,
  /** Longest link attached; a longer one (an absurd id) is left out. */
  url: 2048,
} as const;

export const PAGERDUTY_EVENTS_URLS = {
  us: 'https://events.pagerduty.com/v2/enqueue',
  eu: 'https://events.eu.pagerduty.com/v2/enqueue',
} as const;

export type PagerDutyRegion = keyof typeof PAGERDUTY_EVENTS_URLS;
export const PAGERDUTY_REGIONS = Object.keys(PAGERDUTY_EVENTS_URLS) as PagerDutyRegion[];

/** `payload.source` when the destination names none. */
export const DEFAULT_PAGERDUTY_SOURCE = 'vigil';
