import fc from 'fast-check';
import {
  hasControlCharacters,
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
import { ELLIPSIS } from '../text/truncate-text';
import { renderSlack } from './render-slack';
import { SLACK_LIMITS, SLACK_RENDER_LIMITS } from './slack-limits';
import type { SlackMessage } from './slack-message';

function slackMessage(notification: DestinationNotification, appUrl?: string): SlackMessage {
  const rendered = renderSlack(notification, aContext(appUrl ? { appUrl } : {}));
  expect(rendered.contentType).toBe('application/json');
  return JSON.parse(rendered.body) as SlackMessage;
}

function texts(message: SlackMessage): string[] {
  return stringsIn(message)
    .filter(([path]) => path.endsWith('.text'))
    .map(([, text]) => text);
}

describe('renderSlack for a detection', () => {
  it('sends a header, the body lines, the new events and a button to the detection', () => {
    expect(slackMessage(aDetectionNotification())).toEqual({
      text: [
        'Impossible travel: 2 new events',
        'Detection "Impossible travel" has new events.',
        'New events since last notification: 2',
        'Events attached: 2',
        'Affected users: 2',
        'Time since last notification: 2 hours 5 minutes',
      ].join('\n'),
      mrkdwn: false,
      unfurl_links: false,
      unfurl_media: false,
      blocks: [
        {
          type: 'header',
          text: { type: 'plain_text', text: 'Impossible travel: 2 new events', emoji: false },
        },
        {
          type: 'section',
          text: {
            type: 'plain_text',
            text: [
              'Detection "Impossible travel" has new events.',
              'New events since last notification: 2',
              'Events attached: 2',
              'Affected users: 2',
              'Time since last notification: 2 hours 5 minutes',
              'Sources: okta',
            ].join('\n'),
            emoji: false,
          },
        },
        { type: 'section', text: { type: 'mrkdwn', text: '*New events*' } },
        {
          type: 'section',
          text: {
            type: 'plain_text',
            text: [
              '• Alan Turing — Sign-in from two continents (2024-05-01 10:02:00 UTC)',
              '• Ada Lovelace — Sign-in from a new country (2024-05-01 10:01:00 UTC)',
            ].join('\n'),
            emoji: false,
          },
        },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              text: { type: 'plain_text', text: 'Open detection', emoji: false },
              url: 'https://vigil.example.com/u/detections/det-42',
              action_id: 'open-in-vigil',
              style: 'primary',
            },
          ],
        },
      ],
    });
  });

  it('says that the first notification is the first', () => {
    const message = slackMessage(aDetectionNotification({ previousCount: 0, since: 0 }));
    expect(message.text).toContain(FIRST_NOTIFICATION_LINE);
    expect(JSON.stringify(message)).not.toContain('Time since last notification');
  });

  it('lists the ten newest events and says how many there are in all', () => {
    const message = slackMessage(
      aDetectionNotification({ events: manyEvents(40), eventCount: 7000, truncatedCount: 6960 }),
    );
    const [label, list] = message.blocks.slice(2, 4);
    expect(label).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '*Latest 10 of 7000 new events*' },
    });
    const lines = (list as { text: { text: string } }).text.text.split('\n');
    expect(lines).toHaveLength(SLACK_RENDER_LIMITS.events);
    expect(lines[0]).toMatch(/^• Person 40 — Event number 40/);
    expect(lines[9]).toMatch(/^• Person 31 — /);
  });

  it('has no event list when no event is attached', () => {
    const message = slackMessage(aDetectionNotification({ events: [], truncatedCount: 2 }));
    expect(message.blocks.map((block) => block.type)).toEqual(['header', 'section', 'actions']);
  });

  it('escapes Slack’s control characters in every user-controlled string', () => {
    const hostile = '<!channel> & <@U024BE7LH> <https://evil.example|click>';
    const message = slackMessage(
      aDetectionNotification({
        detectionName: hostile,
        sources: [hostile],
        events: [{ ...manyEvents(1)[0], personName: hostile, description: hostile }],
      }),
    );
    const escaped = '&lt;!channel&gt; &amp; &lt;@U024BE7LH&gt; &lt;https://evil.example|click&gt;';
    expect(message.blocks[0]).toMatchObject({ text: { text: `${escaped}: 2 new events` } });
    expect(message.text).toContain(`Detection "${escaped}" has new events.`);
    expect(JSON.stringify(message.blocks[1])).toContain(`Sources: ${escaped}`);
    expect(JSON.stringify(message.blocks[3])).toContain(`• ${escaped} — ${escaped}`);
    for (const text of texts(message)) expect(text).not.toMatch(/[<>]/);
  });

  it('keeps Markdown, emoji codes and links in user text as typed: only plain_text holds it', () => {
    const hostile = '*bold* _it_ ~s~ `code` [x](https://evil.example) :skull:';
    const message = slackMessage(aDetectionNotification({ detectionName: hostile }));
    for (const block of message.blocks) {
      if (block.type === 'section' && block.text.type === 'mrkdwn') {
        expect(block.text.text).toMatch(/^\*(New events|Latest \d+ of \d+ new events)\*$/);
      }
    }
    expect(message.blocks[0]).toMatchObject({
      text: { type: 'plain_text', text: `${hostile}: 2 new events`, emoji: false },
    });
    expect(message.mrkdwn).toBe(false);
  });

  it('cuts a long title to the header limit of 150 characters, never inside an escape', () => {
    const message = slackMessage(aDetectionNotification({ detectionName: '&'.repeat(400) }));
    const header = (message.blocks[0] as { text: { text: string } }).text.text;
    expect(header.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    expect(header).toMatch(/^(&amp;)+…$/);
  });

  it('cuts astral characters only between pairs', () => {
    const message = slackMessage(aDetectionNotification({ detectionName: '😀'.repeat(200) }));
    const header = (message.blocks[0] as { text: { text: string } }).text.text;
    expect(header).toBe(`${'😀'.repeat(74)}${ELLIPSIS}`);
  });

  it('leaves the button out when the link is longer than a button may hold', () => {
    const message = slackMessage(aDetectionNotification({ detectionId: 'x'.repeat(3000) }));
    expect(message.blocks.some((block) => block.type === 'actions')).toBe(false);
  });
});

describe('renderSlack for an investigation', () => {
  it('sends the title, the body lines with the person and detection, and a button', () => {
    const message = slackMessage(anInvestigationNotification());
    expect(message.blocks).toEqual([
      {
        type: 'header',
        text: {
          type: 'plain_text',
          text: 'Investigation Update: Credential stuffing against Ada',
          emoji: false,
        },
      },
      {
        type: 'section',
        text: {
          type: 'plain_text',
          text: [
            'The investigation for Ada Lovelace has been completed.',
            'Outcome: Confirmed risk',
            'Risk score: 9.2',
            'Person: ada@example.com',
            'Detection: Impossible travel',
          ].join('\n'),
          emoji: false,
        },
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open investigation', emoji: false },
            url: 'https://vigil.example.com/u/investigations/inv-7',
            action_id: 'open-in-vigil',
            style: 'primary',
          },
        ],
      },
    ]);
  });
});

describe('renderSlack for any notification', () => {
  it('stays within every Slack limit and leaves no control character unescaped', () => {
    fc.assert(
      fc.property(notifications(), (notification) => {
        const message = slackMessage(notification);
        expect(message.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
        expect(message.text.length).toBeLessThanOrEqual(SLACK_LIMITS.text);
        expect(message.text.length).toBeGreaterThan(0);
        let blockText = 0;
        for (const block of message.blocks) {
          switch (block.type) {
            case 'header':
              expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
              blockText += block.text.text.length;
              break;
            case 'section':
              expect(block.text.text.length).toBeGreaterThan(0);
              expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
              blockText += block.text.text.length;
              break;
            case 'actions':
              for (const button of block.elements) {
                expect(button.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.buttonText);
                expect(button.url.length).toBeLessThanOrEqual(SLACK_LIMITS.buttonUrl);
                expect(button.action_id.length).toBeLessThanOrEqual(SLACK_LIMITS.actionId);
                blockText += button.text.text.length + button.url.length;
              }
              break;
          }
        }
        expect(blockText).toBeLessThanOrEqual(9_500);
        for (const text of texts(message)) {
          expect(isWellFormed(text)).toBe(true);
          expect(text).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)/);
          expect(hasControlCharacters(text, true)).toBe(false);
        }
      }),
    );
  });
});
