import fc from 'fast-check';
import { hostileOrHugeText } from '../../../../test/support/destination-arbitraries';
import { aDetectionNotification, anInvestigationNotification } from '../testing/notifications';
import { pagerDutyDedupKey } from './pagerduty-dedup-key';
import { PAGERDUTY_LIMITS } from './pagerduty-limits';

describe('pagerDutyDedupKey', () => {
  it('is derived from the detection or the investigation id', () => {
    expect(pagerDutyDedupKey(aDetectionNotification())).toBe('vigil-detection-det-42');
    expect(pagerDutyDedupKey(anInvestigationNotification())).toBe('vigil-investigation-inv-7');
  });

  it('is the same for every notification about one detection, so they group in one alert', () => {
    const first = aDetectionNotification({ previousCount: 0, currentCount: 2, eventCount: 2 });
    const later = aDetectionNotification({
      notificationId: 'another',
      previousCount: 2,
      currentCount: 900,
      eventCount: 898,
      detectionName: 'Renamed',
      decidedAt: first.decidedAt + 86_400_000,
    });
    expect(pagerDutyDedupKey(later)).toBe(pagerDutyDedupKey(first));
  });

  it('stays within 255 characters, hashing ids too long for it', () => {
    const longId = 'd'.repeat(300);
    const key = pagerDutyDedupKey(aDetectionNotification({ detectionId: longId }));
    expect(key).toMatch(/^vigil-detection-sha1-[0-9a-f]{40}$/);
    expect(pagerDutyDedupKey(aDetectionNotification({ detectionId: longId }))).toBe(key);
    const edge = 'e'.repeat(PAGERDUTY_LIMITS.dedupKey - 'vigil-detection-'.length);
    expect(pagerDutyDedupKey(aDetectionNotification({ detectionId: edge }))).toBe(
      `vigil-detection-${edge}`,
    );
  });

  it('is stable, bounded, and different for different detections', () => {
    fc.assert(
      fc.property(hostileOrHugeText(), hostileOrHugeText(), (a, b) => {
        const keyA = pagerDutyDedupKey(aDetectionNotification({ detectionId: a }));
        expect(keyA.length).toBeLessThanOrEqual(PAGERDUTY_LIMITS.dedupKey);
        expect(pagerDutyDedupKey(aDetectionNotification({ detectionId: a }))).toBe(keyA);
        const keyB = pagerDutyDedupKey(aDetectionNotification({ detectionId: b }));
        if (a !== b) expect(keyB).not.toBe(keyA);
        expect(pagerDutyDedupKey(anInvestigationNotification({ investigationId: a }))).not.toBe(
          keyA,
        );
      }),
    );
  });
});

describe('pagerDutyDedupKey for an id that is not well-formed text', () => {
  it('hashes it, telling apart ids that differ only in lone surrogates', () => {
    const a = pagerDutyDedupKey(aDetectionNotification({ detectionId: 'x\ud800' }));
    const b = pagerDutyDedupKey(aDetectionNotification({ detectionId: 'x\ud801' }));
    expect(a).toMatch(/^vigil-detection-sha1-[0-9a-f]{40}$/);
    expect(b).not.toBe(a);
  });
});
