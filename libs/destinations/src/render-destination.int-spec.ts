import fc from 'fast-check';
import { notifications } from '../../../test/support/destination-arbitraries';
import { PagerDutyReceiver } from '../../../test/support/pagerduty-receiver';
import { SlackReceiver } from '../../../test/support/slack-receiver';
import { TeamsReceiver } from '../../../test/support/teams-receiver';
import type { DestinationNotification } from './destination-notification';
import { renderPagerDuty } from './pagerduty/render-pagerduty';
import { DEFAULT_SEVERITY_MAPPING } from './pagerduty/severity-mapping';
import type { RenderedBody } from './rendered-body';
import { renderSlack } from './slack/render-slack';
import { renderTeams } from './teams/render-teams';
import {
  aContext,
  aDetectionNotification,
  anInvestigationNotification,
  manyEvents,
  ROUTING_KEY,
} from './testing/notifications';

/**
 * Each renderer's body, POSTed over HTTP to a local stand-in of its service that checks the
 * service's documented request format and answers as the service does.
 */

let slack: SlackReceiver;
let teams: TeamsReceiver;
let pagerDuty: PagerDutyReceiver;

beforeAll(async () => {
  [slack, teams, pagerDuty] = await Promise.all([
    SlackReceiver.start(),
    TeamsReceiver.start(),
    PagerDutyReceiver.start(),
  ]);
});

afterAll(async () => {
  await Promise.all([slack.stop(), teams.stop(), pagerDuty.stop()]);
});

async function post(
  url: string,
  body: Pick<RenderedBody, 'body'> & { contentType: string },
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': body.contentType },
    body: body.body,
  });
  return { status: response.status, text: await response.text() };
}

const json = (value: unknown) => ({ contentType: 'application/json', body: JSON.stringify(value) });

const pagerDutyOptions = {
  routingKey: ROUTING_KEY,
  severityMapping: DEFAULT_SEVERITY_MAPPING,
  source: 'vigil',
};

/** Notifications that stretch every part of a message. */
const samples: [string, DestinationNotification][] = [
  ['a detection', aDetectionNotification()],
  ['a first notification', aDetectionNotification({ previousCount: 0, since: 0 })],
  ['a detection with no attached event', aDetectionNotification({ events: [] })],
  [
    'a detection with thousands of events',
    aDetectionNotification({ events: manyEvents(5000), eventCount: 9000, truncatedCount: 4000 }),
  ],
  [
    'a detection with hostile, huge text',
    aDetectionNotification({
      detectionName: '<!channel> *x* {{DATE(2017-02-14T06:00:00Z)}} &'.repeat(300),
      events: manyEvents(40).map((event) => ({
        ...event,
        personName: '😀<@U1>'.repeat(500),
        description: '€&\n'.repeat(2000),
      })),
      sources: ['okta', 'github'],
    }),
  ],
  ['an investigation', anInvestigationNotification()],
  ['an unscored investigation', anInvestigationNotification({ riskScore: null, status: 'open' })],
];

describe('the Slack stand-in', () => {
  it.each(samples)('posts the Slack message of %s', async (_name, notification) => {
    const { status, text } = await post(slack.webhookUrl(), renderSlack(notification, aContext()));
    expect({ status, text }).toEqual({ status: 200, text: 'ok' });
  });

  it('posts the Slack message of any notification', async () => {
    await fc.assert(
      fc.asyncProperty(notifications(), async (notification) => {
        const { status, text } = await post(
          slack.webhookUrl(),
          renderSlack(notification, aContext()),
        );
        expect({ status, text }).toEqual({ status: 200, text: 'ok' });
      }),
      { numRuns: 40 },
    );
  });

  const header = (text: string) => ({ type: 'header', text: { type: 'plain_text', text } });
  const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
  const button = (fields: Record<string, unknown>) => ({
    type: 'actions',
    elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open' }, ...fields }],
  });

  it.each([
    [
      'a body that is not JSON',
      { contentType: 'application/json', body: '{"text":' },
      400,
      'invalid_payload',
    ],
    [
      'a form-encoded body',
      { contentType: 'application/x-www-form-urlencoded', body: 'text=hi' },
      400,
      'invalid_payload',
    ],
    ['a message with neither text nor blocks', json({}), 400, 'no_text'],
    [
      'a header of 151 characters',
      json({ text: 't', blocks: [header('h'.repeat(151))] }),
      400,
      'invalid_blocks',
    ],
    [
      'a section of 3001 characters',
      json({ text: 't', blocks: [section('s'.repeat(3001))] }),
      400,
      'invalid_blocks',
    ],
    ['an empty section', json({ text: 't', blocks: [section('')] }), 400, 'invalid_blocks'],
    ['51 blocks', json({ text: 't', blocks: Array(51).fill(section('s')) }), 400, 'invalid_blocks'],
    [
      'a mrkdwn header',
      json({ text: 't', blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'h' } }] }),
      400,
      'invalid_blocks',
    ],
    [
      'emoji on mrkdwn',
      json({
        text: 't',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 's', emoji: true } }],
      }),
      400,
      'invalid_blocks',
    ],
    [
      'a button text of 76 characters',
      json({
        text: 't',
        blocks: [
          {
            type: 'actions',
            elements: [{ type: 'button', text: { type: 'plain_text', text: 'b'.repeat(76) } }],
          },
        ],
      }),
      400,
      'invalid_blocks',
    ],
    [
      'a button URL of 3001 characters',
      json({ text: 't', blocks: [button({ url: `https://x.example/${'u'.repeat(2983)}` })] }),
      400,
      'invalid_blocks',
    ],
    [
      'an unknown block type',
      json({ text: 't', blocks: [{ type: 'marquee' }] }),
      400,
      'invalid_blocks',
    ],
    ['a text over 40,000 characters', json({ text: 't'.repeat(40_001) }), 400, 'msg_too_long'],
    [
      'blocks holding 13,000 characters',
      json({ text: 't', blocks: Array(5).fill(section('s'.repeat(2600))) }),
      400,
      'msg_blocks_too_long',
    ],
  ])('refuses %s', async (_name, body, status, code) => {
    expect(await post(slack.webhookUrl(), body)).toEqual({ status, text: code });
  });

  it('answers no_service on a path that is no webhook', async () => {
    const message = renderSlack(aDetectionNotification(), aContext());
    expect(await post(slack.webhookUrl('/services/T1/B1/other'), message)).toEqual({
      status: 404,
      text: 'no_service',
    });
  });
});

describe('the Teams workflow stand-in', () => {
  it.each(samples)('posts the card of %s', async (_name, notification) => {
    const { status } = await post(teams.workflowUrl(), renderTeams(notification, aContext()));
    expect(status).toBe(202);
  });

  it('posts the card of any notification', async () => {
    await fc.assert(
      fc.asyncProperty(notifications(), async (notification) => {
        const { status, text } = await post(
          teams.workflowUrl(),
          renderTeams(notification, aContext()),
        );
        expect({ status, text }).toEqual({ status: 202, text: '' });
      }),
      { numRuns: 40 },
    );
  });

  const card = (content: Record<string, unknown>) =>
    json({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: { type: 'AdaptiveCard', version: '1.4', body: [], ...content },
        },
      ],
    });

  it.each([
    ['a body over 28 KB', card({ body: [{ type: 'TextBlock', text: 'x'.repeat(28_100) }] }), 413],
    ['a body that is not JSON', { contentType: 'application/json', body: 'not json' }, 400],
    ['a plain-text body', { contentType: 'text/plain', body: '{}' }, 400],
    ['a message without attachments', json({ type: 'message', attachments: [] }), 400],
    [
      'an attachment that is not an Adaptive Card',
      json({
        type: 'message',
        attachments: [{ contentType: 'application/vnd.microsoft.card.hero', content: {} }],
      }),
      400,
    ],
    ['a card version Teams does not render', card({ version: '1.6' }), 400],
    [
      'a RichTextBlock in a version 1.0 card',
      card({
        version: '1.0',
        body: [{ type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: 'x' }] }],
      }),
      400,
    ],
    ['an unknown element', card({ body: [{ type: 'Marquee' }] }), 400],
    ['a submit action', card({ actions: [{ type: 'Action.Submit', title: 'Go' }] }), 400],
    [
      'an OpenUrl action without an absolute URL',
      card({ actions: [{ type: 'Action.OpenUrl', title: 'Go', url: '/u/detections/1' }] }),
      400,
    ],
  ])('refuses %s', async (_name, body, status) => {
    expect((await post(teams.workflowUrl(), body)).status).toBe(status);
  });

  it('refuses a request without the workflow’s signature', async () => {
    const message = renderTeams(aDetectionNotification(), aContext());
    expect((await post(teams.workflowUrl(null), message)).status).toBe(401);
    expect((await post(teams.workflowUrl('forged'), message)).status).toBe(401);
  });
});

describe('the PagerDuty Events API stand-in', () => {
  it.each(samples)('accepts the event of %s', async (_name, notification) => {
    const rendered = renderPagerDuty(notification, aContext(), pagerDutyOptions);
    const { status, text } = await post(pagerDuty.eventsUrl(), rendered);
    expect(status).toBe(202);
    expect(JSON.parse(text)).toEqual({
      status: 'success',
      message: 'Event processed',
      dedup_key: (JSON.parse(rendered.body) as { dedup_key: string }).dedup_key,
    });
  });

  it('accepts the event of any notification', async () => {
    await fc.assert(
      fc.asyncProperty(notifications(), async (notification) => {
        const rendered = renderPagerDuty(notification, aContext(), pagerDutyOptions);
        const { status, text } = await post(pagerDuty.eventsUrl(), rendered);
        expect({ status, text: JSON.parse(text) as unknown }).toMatchObject({
          status: 202,
          text: { status: 'success' },
        });
      }),
      { numRuns: 40 },
    );
  });

  it('groups every notification about one detection under one dedup key', async () => {
    const first = renderPagerDuty(
      aDetectionNotification({ previousCount: 0 }),
      aContext(),
      pagerDutyOptions,
    );
    const later = renderPagerDuty(
      aDetectionNotification({ previousCount: 5, currentCount: 50, eventCount: 45 }),
      aContext(),
      pagerDutyOptions,
    );
    const keys = await Promise.all(
      [first, later].map(async (rendered) => {
        const { text } = await post(pagerDuty.eventsUrl(), rendered);
        return (JSON.parse(text) as { dedup_key: string }).dedup_key;
      }),
    );
    expect(keys).toEqual(['vigil-detection-det-42', 'vigil-detection-det-42']);
  });

  const event = (overrides: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) =>
    json({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      payload: { summary: 's', source: 'vigil', severity: 'info', ...payload },
      ...overrides,
    });

  it.each([
    [
      'a routing key of 31 characters',
      event({ routing_key: ROUTING_KEY.slice(1) }),
      "Length of 'routing_key' is incorrect (should be 32 characters)",
    ],
    [
      'a routing key with a dash',
      event({ routing_key: `${ROUTING_KEY.slice(1)}-` }),
      "'routing_key' cannot contain non-alphanumeric characters.",
    ],
    [
      'an unknown event action',
      event({ event_action: 'escalate' }),
      "'event_action' must be one of trigger, acknowledge, resolve",
    ],
    [
      'a resolve without dedup key',
      event({ event_action: 'resolve' }),
      "'dedup_key' is required to acknowledge or resolve",
    ],
    [
      'a dedup key of 256 characters',
      event({ dedup_key: 'k'.repeat(256) }),
      "'dedup_key' is longer than 255 characters",
    ],
    [
      'a summary of 1025 characters',
      event({}, { summary: 's'.repeat(1025) }),
      "'payload.summary' is longer than 1024 characters",
    ],
    ['a blank source', event({}, { source: ' ' }), "'payload.source' is missing or blank"],
    [
      'an unknown severity',
      event({}, { severity: 'fatal' }),
      "'payload.severity' must be one of critical, error, warning, info",
    ],
    [
      'a timestamp that is not ISO 8601',
      event({}, { timestamp: 'yesterday' }),
      "'payload.timestamp' is not an ISO 8601 timestamp",
    ],
    [
      'a link without href',
      event({ links: [{ text: 'x' }] }),
      "'links' must be a list of objects with an href",
    ],
    [
      'an event over 512 KB',
      event({}, { custom_details: { blob: 'x'.repeat(512_001) } }),
      'Event payload is larger than 512 KB',
    ],
    [
      'a body that is not JSON',
      { contentType: 'application/json', body: '{' },
      'Event is not a JSON object',
    ],
    [
      'a body that is not sent as JSON',
      { contentType: 'text/plain', body: '{}' },
      "Content-Type must be 'application/json'",
    ],
  ])('refuses %s with 400', async (_name, body, error) => {
    const { status, text } = await post(pagerDuty.eventsUrl(), body);
    expect(status).toBe(400);
    expect(JSON.parse(text)).toEqual({
      status: 'invalid event',
      message: 'Event object is invalid',
      errors: [error],
    });
  });

  it('answers 429 when told to, then takes the same event', async () => {
    const rendered = renderPagerDuty(aDetectionNotification(), aContext(), pagerDutyOptions);
    pagerDuty.failNext(429);
    const throttled = await post(pagerDuty.eventsUrl(), rendered);
    expect(throttled.status).toBe(429);
    expect(JSON.parse(throttled.text)).toMatchObject({ status: 'throttle event' });
    expect((await post(pagerDuty.eventsUrl(), rendered)).status).toBe(202);
  });

  it.each([500, 502, 503] as const)('answers %s when told to', async (code) => {
    const rendered = renderPagerDuty(aDetectionNotification(), aContext(), pagerDutyOptions);
    pagerDuty.failNext(code, 2);
    expect((await post(pagerDuty.eventsUrl(), rendered)).status).toBe(code);
    expect((await post(pagerDuty.eventsUrl(), rendered)).status).toBe(code);
    expect((await post(pagerDuty.eventsUrl(), rendered)).status).toBe(202);
  });
});
