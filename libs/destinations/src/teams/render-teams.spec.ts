import fc from 'fast-check';
import {
  isWellFormed,
  notifications,
  stringsIn,
} from '../../../../test/support/destination-arbitraries';
import type { DestinationNotification } from '../destination-notification';
import { FIRST_NOTIFICATION_LINE } from '../notification-view';
import {
  aContext,
  aDetectionNotification,
  anInvestigationNotification,
  manyEvents,
} from '../testing/notifications';
import { utf8Length } from '../text/utf8-length';
import { renderTeams } from './render-teams';
import { TEAMS_LIMITS, TEAMS_RENDER_LIMITS } from './teams-limits';
import type { TeamsAdaptiveCard, TeamsMessage } from './teams-message';

function teamsMessage(notification: DestinationNotification): TeamsMessage {
  const rendered = renderTeams(notification, aContext());
  expect(rendered.contentType).toBe('application/json');
  return JSON.parse(rendered.body) as TeamsMessage;
}

function cardOf(notification: DestinationNotification): TeamsAdaptiveCard {
  return teamsMessage(notification).attachments[0].content;
}

/** The text of each element of the card's body, runs joined. */
function bodyTexts(card: TeamsAdaptiveCard): string[] {
  return card.body.map((element) =>
    element.type === 'TextBlock' ? element.text : element.inlines.map((r) => r.text).join(''),
  );
}

describe('renderTeams for a detection', () => {
  it('sends a message with one Adaptive Card that Teams workflows accept', () => {
    const message = teamsMessage(aDetectionNotification());
    expect(message).toMatchObject({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            actions: [
              {
                type: 'Action.OpenUrl',
                title: 'Open detection',
                url: 'https://vigil.example.com/u/detections/det-42',
              },
            ],
          },
        },
      ],
    });
    expect(message.attachments).toHaveLength(1);
  });

  it('shows the title, the body lines, the sources and the newest events first', () => {
    const card = cardOf(aDetectionNotification());
    expect(card.body[0]).toEqual({
      type: 'RichTextBlock',
      inlines: [
        {
          type: 'TextRun',
          text: 'Impossible travel: 2 new events',
          size: 'Large',
          weight: 'Bolder',
        },
      ],
    });
    expect(bodyTexts(card)).toEqual([
      'Impossible travel: 2 new events',
      'Detection "Impossible travel" has new events.',
      'New events since last notification: 2',
      'Events attached: 2',
      'Affected users: 2',
      'Time since last notification: 2 hours 5 minutes',
      'Sources: okta',
      'New events',
      'Alan Turing — Sign-in from two continents (2024-05-01 10:02:00 UTC)',
      'Ada Lovelace — Sign-in from a new country (2024-05-01 10:01:00 UTC)',
    ]);
  });

  it('says that the first notification is the first', () => {
    const card = cardOf(aDetectionNotification({ previousCount: 0 }));
    expect(bodyTexts(card)).toContain(FIRST_NOTIFICATION_LINE);
  });

  it('puts user text only in TextRuns, which render no Markdown, and breaks template functions', () => {
    const hostile = '**x** [a](https://evil.example) <at>Ada</at> {{DATE(2017-02-14T06:00:00Z)}}';
    const card = cardOf(
      aDetectionNotification({
        detectionName: hostile,
        events: [{ ...manyEvents(1)[0], personName: hostile, description: hostile }],
      }),
    );
    const shown =
      '**x** [a](https://evil.example) <at>Ada</at> {\u200b{DATE(2017-02-14T06:00:00Z)}}';
    expect(bodyTexts(card)[0]).toBe(`${shown}: 2 new events`);
    expect(bodyTexts(card).at(-1)).toBe(`${shown} — ${shown} (2024-05-01 10:00:01 UTC)`);
    for (const element of card.body) {
      if (element.type === 'TextBlock')
        expect(element.text).toMatch(/^(New events|Latest \d+ of \d+ new events)$/);
    }
  });

  it('lists at most 25 events and says how many there are in all', () => {
    const card = cardOf(
      aDetectionNotification({ events: manyEvents(60), eventCount: 900, truncatedCount: 840 }),
    );
    const texts = bodyTexts(card);
    expect(texts).toContain('Latest 25 of 900 new events');
    expect(texts.filter((text) => text.startsWith('Person '))).toHaveLength(
      TEAMS_RENDER_LIMITS.events,
    );
  });

  it('drops the oldest listed events until the message fits its byte budget', () => {
    const events = manyEvents(25).map((event) => ({
      ...event,
      personName: '😀'.repeat(100),
      description: '€'.repeat(300),
    }));
    const rendered = renderTeams(
      aDetectionNotification({ events, eventCount: 25, truncatedCount: 0 }),
      aContext(),
    );
    expect(utf8Length(rendered.body)).toBeLessThanOrEqual(TEAMS_RENDER_LIMITS.bodyBytes);
    const texts = bodyTexts((JSON.parse(rendered.body) as TeamsMessage).attachments[0].content);
    const label = texts.find((text) => text.startsWith('Latest '));
    expect(label).toMatch(/^Latest (\d+) of 25 new events$/);
    const shown = Number(/Latest (\d+)/.exec(label!)![1]);
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(25);
    expect(texts.at(-1)).toMatch(
      new RegExp(`10:00:${String(25 - shown + 1).padStart(2, '0')} UTC\\)$`),
    );
  });

  it('leaves the button out when the link is absurdly long', () => {
    expect(cardOf(aDetectionNotification({ detectionId: 'x'.repeat(3000) })).actions).toEqual([]);
  });
});

describe('renderTeams for an investigation', () => {
  it('shows the title, the body lines, the person and the detection, and a button', () => {
    const card = cardOf(anInvestigationNotification());
    expect(bodyTexts(card)).toEqual([
      'Investigation Update: Credential stuffing against Ada',
      'The investigation for Ada Lovelace has been completed.',
      'Outcome: Confirmed risk',
      'Risk score: 9.2',
      'Person: ada@example.com',
      'Detection: Impossible travel',
    ]);
    expect(card.actions).toEqual([
      {
        type: 'Action.OpenUrl',
        title: 'Open investigation',
        url: 'https://vigil.example.com/u/investigations/inv-7',
      },
    ]);
  });
});

describe('renderTeams for any notification', () => {
  it('stays within the byte budget, far below the 28 KB limit, with well-formed text', () => {
    fc.assert(
      fc.property(notifications(), (notification) => {
        const rendered = renderTeams(notification, aContext());
        const bytes = utf8Length(rendered.body);
        expect(bytes).toBeLessThanOrEqual(TEAMS_RENDER_LIMITS.bodyBytes);
        expect(bytes).toBeLessThan(TEAMS_LIMITS.messageBytes);
        for (const [, text] of stringsIn(JSON.parse(rendered.body))) {
          expect(isWellFormed(text)).toBe(true);
          expect(text).not.toMatch(/\{\{/);
        }
      }),
    );
  });
});
