import {
  buildDetectionWebhookPayload,
  renderDetectionEmail,
  type NotificationDecision,
} from '@vigil/contracts';
import fc from 'fast-check';
import { applyEvents } from './apply-events';
import { decide } from './decide';
import type { DetectionEvent, DetectionState } from './detection-state';
import { dryRunDetection, type DetectionDryRun } from './dry-run-detection';
import { isSilenced } from './is-silenced';
import type { NotificationSettings } from './notification-settings';
import { DETECTION_ID, HOUR, MINUTE, T0, deepFreeze } from './testing/factories';

/**
 * The dry run cannot disagree with the real decisions: over random histories of events,
 * settings and time, it reports a channel as firing exactly when `decide` emits its decision at
 * that moment, with the same content, and says why for every channel that does not.
 */

const settingsArbitrary = (now: number): fc.Arbitrary<NotificationSettings> =>
  fc.record({
    emailEnabled: fc.boolean(),
    recipients: fc.constantFrom<string[]>(
      [],
      ['soc@example.com'],
      ['a@example.com', 'b@example.com'],
    ),
    frequency: fc.constantFrom('batch' as const, 'immediate' as const, 'threshold' as const),
    batchWindowMinutes: fc.constantFrom(1, 15, 60, 1440),
    webhookEnabled: fc.boolean(),
    webhookProviderIds: fc.constantFrom<string[]>([], ['tines'], ['tines', 'gone']),
    maxEventsPerNotification: fc.integer({ min: 1, max: 6 }),
    threshold: fc.option(fc.nat(30), { nil: null }),
    silence: fc.oneof(
      { weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'disabled' as const }) },
      {
        weight: 2,
        arbitrary: fc
          .integer({ min: -2 * HOUR, max: 2 * HOUR })
          .map((offset) => ({ kind: 'snoozed' as const, until: now + offset })),
      },
    ),
  });

interface Step {
  ids: number[];
  advanceMs: number;
  settings: NotificationSettings;
}

const stepArbitrary: fc.Arbitrary<Step> = fc.record({
  ids: fc.array(fc.nat(40), { minLength: 1, maxLength: 6 }),
  advanceMs: fc.oneof(fc.nat(5 * MINUTE), fc.nat(3 * HOUR)),
  settings: settingsArbitrary(T0),
});

const eventOf = (id: number, now: number): DetectionEvent => ({
  id: `e${id}`,
  detectionId: DETECTION_ID,
  detectionName: 'Property detection',
  personName: `P${id % 7}`,
  personEmail: `p${id % 7}@example.com`,
  description: `event ${id}`,
  timestamp: now - (id % 13) * MINUTE,
  riskScore: (id * 7) % 10,
  source: `source-${id % 3}`,
});

/** A state as the processor leaves it: events folded in and decided on, step after step. */
function stateAfter(steps: readonly Step[]): { state: DetectionState; now: number } {
  let now = T0;
  let state: DetectionState | undefined;
  for (const step of steps) {
    now += step.advanceMs;
    state = applyEvents(
      state,
      step.ids.map((id) => eventOf(id, now)),
      now,
    ).state;
    state = decide(state, step.settings, now).state;
  }
  return { state: state!, now };
}

function firedDecisions(run: DetectionDryRun): NotificationDecision[] {
  const fired: NotificationDecision[] = [];
  if (run.webhook.fires) fired.push(run.webhook.decision);
  if (run.email.fires) fired.push(run.email.decision);
  return fired;
}

describe('dryRunDetection — agrees with decide', () => {
  it('fires exactly the decisions decide emits, with identical content, and says why for the rest', () => {
    fc.assert(
      fc.property(
        fc.array(stepArbitrary, { minLength: 1, maxLength: 10 }),
        fc
          .nat(3 * HOUR)
          .chain((later) => fc.tuple(fc.constant(later), settingsArbitrary(T0 + later))),
        fc.subarray([{ id: 'tines', name: 'Tines' }]),
        (steps, [laterMs, config], providers) => {
          const { state, now: lastStep } = stateAfter(steps);
          const now = Math.max(lastStep, T0 + laterMs);
          const frozen = deepFreeze(state);
          const run = dryRunDetection(frozen, config, providers, now);
          const { decisions } = decide(frozen, config, now);

          expect(firedDecisions(run)).toEqual(decisions);
          for (const decision of decisions) {
            const same = firedDecisions(run).find((d) => d.kind === decision.kind)!;
            if (decision.kind === 'webhook' && same.kind === 'webhook') {
              const delivery = { id: 'placeholder', recipientName: 'Tines' };
              expect(buildDetectionWebhookPayload(same, delivery, 'https://x')).toEqual(
                buildDetectionWebhookPayload(decision, delivery, 'https://x'),
              );
            }
            if (decision.kind === 'email' && same.kind === 'email') {
              expect(renderDetectionEmail(same, 'https://x')).toEqual(
                renderDetectionEmail(decision, 'https://x'),
              );
            }
          }
          // Every channel that does not fire says why; silence is said first.
          for (const channel of [run.webhook, run.email]) {
            if (channel.fires) {
              expect(channel.targets.length).toBeGreaterThan(0);
              continue;
            }
            if (isSilenced(config, now)) {
              expect(['disabled', 'silenced_until']).toContain(channel.reason.code);
            }
            expect(channel.targets.every((t) => t.reason === channel.reason)).toBe(true);
          }
          // A Batch email is a digest entry leaving at the end of its window.
          if (run.email.fires && run.email.channel === 'digest') {
            expect(run.email.when).toEqual({
              kind: 'window_close',
              at: run.email.decision.windowEnd,
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
