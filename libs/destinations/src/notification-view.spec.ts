import fc from 'fast-check';
import { notifications } from '../../../test/support/destination-arbitraries';
import { FIRST_NOTIFICATION_LINE, VIEW_LIMITS, viewOf } from './notification-view';
import {
  aDetectionNotification,
  anInvestigationNotification,
  manyEvents,
} from './testing/notifications';

const APP_URL = 'https://vigil.example.com/';

describe('viewOf a detection notification', () => {
  it('says what the SPEC payload says, in the same words', () => {
    const view = viewOf(aDetectionNotification(), APP_URL);
    expect(view.title).toBe('Impossible travel: 2 new events');
    expect(view.lines).toEqual([
      'Detection "Impossible travel" has new events.',
      'New events since last notification: 2',
      'Events attached: 2',
      'Affected users: 2',
      'Time since last notification: 2 hours 5 minutes',
    ]);
    expect(view.url).toBe('https://vigil.example.com/u/detections/det-42');
    expect(view.actionLabel).toBe('Open detection');
    expect(view.facts).toEqual([['Sources', 'okta']]);
  });

  it('says that the first notification is the first, not how long since the first event', () => {
    const view = viewOf(
      aDetectionNotification({ previousCount: 0, since: 0, decidedAt: 49_525_200_000 }),
      APP_URL,
    );
    expect(view.lines[4]).toBe(FIRST_NOTIFICATION_LINE);
    expect(view.lines.join('\n')).not.toMatch(/days/);
  });

  it('lists the newest events first, at most VIEW_LIMITS.events, and counts the others', () => {
    const events = manyEvents(40);
    const view = viewOf(
      aDetectionNotification({ events, eventCount: 7000, truncatedCount: 6960 }),
      APP_URL,
    );
    expect(view.events).toHaveLength(VIEW_LIMITS.events);
    expect(view.events[0].id).toBe('evt-40');
    expect(view.events[0].happened).toBe('2024-05-01 10:00:40 UTC');
    expect(view.unlistedCount).toBe(7000 - VIEW_LIMITS.events);
  });

  it('bounds names and descriptions and keeps them on one line', () => {
    const view = viewOf(
      aDetectionNotification({
        detectionName: `Odd\nname ${'x'.repeat(500)}`,
        events: [
          { ...manyEvents(1)[0], personName: 'Ada\r\nLovelace', description: 'y'.repeat(999) },
        ],
      }),
      APP_URL,
    );
    expect(view.title).toMatch(/^Odd name x+…: 2 new events$/);
    expect(view.events[0].personName).toBe('Ada Lovelace');
    expect(view.events[0].description).toHaveLength(VIEW_LIMITS.description);
    expect(view.lines[0].length).toBeLessThan(VIEW_LIMITS.detectionName + 40);
  });

  it('shows a timestamp no date can hold as unknown rather than failing', () => {
    const view = viewOf(
      aDetectionNotification({ events: [{ ...manyEvents(1)[0], timestamp: Number.MAX_VALUE }] }),
      APP_URL,
    );
    expect(view.events[0].happened).toBe('time unknown');
  });
});

describe('viewOf an investigation notification', () => {
  it('says what the SPEC payload says, with the person and detection as facts', () => {
    const view = viewOf(anInvestigationNotification(), APP_URL);
    expect(view.title).toBe('Investigation Update: Credential stuffing against Ada');
    expect(view.lines).toEqual([
      'The investigation for Ada Lovelace has been completed.',
      'Outcome: Confirmed risk',
      'Risk score: 9.2',
    ]);
    expect(view.url).toBe('https://vigil.example.com/u/investigations/inv-7');
    expect(view.facts).toEqual([
      ['Person', 'ada@example.com'],
      ['Detection', 'Impossible travel'],
    ]);
    expect(view.events).toEqual([]);
  });
});

describe('viewOf any notification', () => {
  it('never carries a line break inside a line or a title', () => {
    fc.assert(
      fc.property(notifications(), (notification) => {
        const view = viewOf(notification, APP_URL);
        for (const text of [view.title, ...view.lines, ...view.facts.flat()]) {
          expect(text).not.toMatch(/[\r\n\u2028\u2029]/);
        }
      }),
    );
  });
});
