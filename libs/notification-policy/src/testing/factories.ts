import { applyEvents } from '../apply-events';
import type { DetectionEvent, DetectionState, DetectionStateOptions } from '../detection-state';
import type { NotificationSettings } from '../notification-settings';

/** 2024-05-01T10:00:00.000Z: the start of an hour, so digest windows are easy to read. */
export const T0 = Date.UTC(2024, 4, 1, 10, 0, 0);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const DETECTION_ID = '7d0f3c1e-2b4a-4c6d-8e9f-0a1b2c3d4e5f';

/** Settings with both channels on and one target each, Immediate mode. */
export function settings(overrides: Partial<NotificationSettings> = {}): NotificationSettings {
  return {
    emailEnabled: true,
    recipients: ['soc@example.com'],
    frequency: 'immediate',
    batchWindowMinutes: 60,
    webhookEnabled: true,
    webhookProviderIds: ['tines'],
    maxEventsPerNotification: 5000,
    threshold: null,
    silence: { kind: 'none' },
    ...overrides,
  };
}

/**
 * Event number n: id `evt-n`, happened n seconds after T0, one of three people, risk score n / 10
 * (so the newest event has the highest score), from okta or, every fifth, github.
 */
export function event(n: number, overrides: Partial<DetectionEvent> = {}): DetectionEvent {
  const person = n % 3;
  return {
    id: `evt-${n}`,
    detectionId: DETECTION_ID,
    detectionName: 'Impossible travel',
    personName: `Person ${person}`,
    personEmail: `person${person}@example.com`,
    description: `Sign-in from a new country (${n})`,
    timestamp: T0 + n * 1000,
    riskScore: n / 10,
    source: n % 5 === 0 ? 'github' : 'okta',
    ...overrides,
  };
}

/** Events numbered from..to inclusive. */
export function events(from: number, to: number): DetectionEvent[] {
  const out: DetectionEvent[] = [];
  for (let n = from; n <= to; n++) out.push(event(n));
  return out;
}

/** A detection that has received events 1..count and never notified. */
export function stateWith(
  count: number,
  now = T0,
  options: Partial<DetectionStateOptions> = {},
): DetectionState {
  return applyEvents(undefined, events(1, count), now, options).state;
}

/** Adds events from..to to a state. */
export function addEvents(
  state: DetectionState,
  from: number,
  to: number,
  now = T0,
  options: Partial<DetectionStateOptions> = {},
): DetectionState {
  return applyEvents(state, events(from, to), now, options).state;
}

/** Freezes a value deeply, so a test fails if a pure function mutates its input. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}
