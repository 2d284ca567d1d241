import fc from 'fast-check';
import { hasControlCharacters } from '../../../../test/support/destination-arbitraries';
import type { DestinationConfig } from '../destination-config';
import { DEFAULT_SEVERITY_MAPPING } from '../pagerduty/severity-mapping';
import { PAGERDUTY_LIMITS } from '../pagerduty/pagerduty-limits';
import type { SlackMessage } from '../slack/slack-message';
import { SLACK_LIMITS } from '../slack/slack-limits';
import type { DeliveryFailure } from './delivery-failure';
import { FAILURE_VIEW_LIMITS, failureView } from './failure-view';
import { DELIVERY_FAILED_EVENT_TYPE, renderDeliveryFailure } from './render-delivery-failure';
import { renderFailureEmail } from './render-failure-email';

const APP = 'https://vigil.example.com';
const DIED = Date.UTC(2026, 10, 26, 9, 30);

function aFailure(overrides: Partial<DeliveryFailure> = {}): DeliveryFailure {
  return {
    deliveryId: '6df13d4a-725b-5028-8bf0-848ba86e0c66',
    notificationId: 'n-1',
    kind: 'detection',
    subjectId: 'det-1',
    target: { channel: 'webhook', id: 'p-1', name: 'PagerDuty on-call' },
    attempts: 8,
    lastStatusCode: 503,
    lastError: 'HTTP 503: unavailable',
    diedAt: DIED,
    payload: { delivery: { id: '6df13d4a-725b-5028-8bf0-848ba86e0c66' } },
    ...overrides,
  };
}

const SLACK: DestinationConfig = { kind: 'slack', url: 'https://hooks.slack.com/services/T/B/x' };
const TEAMS: DestinationConfig = { kind: 'teams', url: 'https://example.logic.azure.com/w?sig=x' };
const PAGERDUTY: DestinationConfig = {
  kind: 'pagerduty',
  routingKey: 'R'.repeat(32),
  severityMapping: DEFAULT_SEVERITY_MAPPING,
  source: 'vigil',
  region: 'us',
};
const WEBHOOK: DestinationConfig = { kind: 'webhook', url: 'https://hooks.example.com' };

describe('failureView', () => {
  it('says what failed, where, how often and how, with a link to the subject', () => {
    expect(failureView(aFailure(), APP)).toEqual({
      title: 'Delivery to PagerDuty on-call failed',
      lines: [
        'Vigil could not deliver a detection notification to provider PagerDuty on-call after 8 attempts.',
        'Last answer: HTTP 503',
        'Last error: HTTP 503: unavailable',
        'Given up at 2026-11-26 09:30:00 UTC.',
      ],
      url: `${APP}/u/detections/det-1`,
      actionLabel: 'Open detection',
      events: [],
      unlistedCount: 0,
      facts: [['Delivery', '6df13d4a-725b-5028-8bf0-848ba86e0c66']],
    });
  });

  it('links an investigation, a digest to a recipient, and a digest to a provider', () => {
    expect(failureView(aFailure({ kind: 'investigation', subjectId: 'inv 1' }), APP).url).toBe(
      `${APP}/u/investigations/inv%201`,
    );
    const digest = aFailure({
      kind: 'digest',
      subjectId: null,
      target: { channel: 'email', id: 'a@example.com', name: 'a@example.com' },
      attempts: 1,
      lastStatusCode: null,
    });
    expect(failureView(digest, APP)).toMatchObject({
      url: APP,
      lines: [
        'Vigil could not deliver a digest to a@example.com after 1 attempt.',
        'Last error: HTTP 503: unavailable',
        'Given up at 2026-11-26 09:30:00 UTC.',
      ],
    });
    expect(failureView(aFailure({ subjectId: null, kind: 'digest' }), APP).url).toBe(
      `${APP}/settings/integrations/p-1`,
    );
  });

  it("bounds the provider's name and the receiver's error, and strips control characters", () => {
    const view = failureView(
      aFailure({
        target: { channel: 'webhook', id: 'p', name: `Evil\u0007${'n'.repeat(500)}` },
        lastError: `x\u0000${'e'.repeat(5_000)}`,
      }),
      APP,
    );
    const error = view.lines.find((line) => line.startsWith('Last error: '))!;
    expect(error.length).toBeLessThanOrEqual('Last error: '.length + FAILURE_VIEW_LIMITS.error);
    expect(view.title.length).toBeLessThanOrEqual(
      'Delivery to  failed'.length + FAILURE_VIEW_LIMITS.targetName,
    );
    expect(hasControlCharacters(view.title + view.lines.join(''))).toBe(false);
  });
});

describe('renderDeliveryFailure', () => {
  it('sends a webhook destination a delivery.failed event carrying the original body', () => {
    expect(JSON.parse(renderDeliveryFailure(aFailure(), APP, WEBHOOK))).toEqual({
      type: DELIVERY_FAILED_EVENT_TYPE,
      timestamp: '2026-11-26T09:30:00.000Z',
      data: {
        delivery_id: '6df13d4a-725b-5028-8bf0-848ba86e0c66',
        notification_id: 'n-1',
        kind: 'detection',
        subject_id: 'det-1',
        link: `${APP}/u/detections/det-1`,
        target: { channel: 'webhook', id: 'p-1', name: 'PagerDuty on-call' },
        failure: {
          attempts: 8,
          last_status_code: 503,
          last_error: 'HTTP 503: unavailable',
          died_at: '2026-11-26T09:30:00.000Z',
        },
        payload: { delivery: { id: '6df13d4a-725b-5028-8bf0-848ba86e0c66' } },
      },
    });
  });

  it('sends Slack plain text only, so a name cannot mention or link', () => {
    const message = JSON.parse(
      renderDeliveryFailure(
        aFailure({
          target: { channel: 'webhook', id: 'p', name: '<!channel> *bold* <https://x|y>' },
        }),
        APP,
        SLACK,
      ),
    ) as SlackMessage;
    expect(message.mrkdwn).toBe(false);
    expect(JSON.stringify(message)).not.toContain('<!channel>');
    expect(message.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
  });

  it('keeps Slack and Teams messages within their limits for any name and error', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 3_000 }),
        fc.string({ maxLength: 10_000 }),
        (name, error) => {
          const failure = aFailure({
            target: { channel: 'webhook', id: 'p', name },
            lastError: error,
          });
          const slack = JSON.parse(renderDeliveryFailure(failure, APP, SLACK)) as SlackMessage;
          for (const block of slack.blocks) {
            if (block.type === 'header') {
              expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
            }
            if (block.type === 'section' && 'text' in block && block.text) {
              expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
            }
          }
          expect(
            () => JSON.parse(renderDeliveryFailure(failure, APP, TEAMS)) as unknown,
          ).not.toThrow();
        },
      ),
      { numRuns: 100 },
    );
  });

  it('sends PagerDuty an error trigger per failed delivery, summary within 1024 characters, no routing key', () => {
    const event = JSON.parse(
      renderDeliveryFailure(aFailure({ lastError: 'e'.repeat(5_000) }), APP, PAGERDUTY),
    ) as Record<string, unknown> & { payload: Record<string, unknown> };
    expect(event).not.toHaveProperty('routing_key');
    expect(event).toMatchObject({
      event_action: 'trigger',
      dedup_key: 'vigil-delivery-failed-6df13d4a-725b-5028-8bf0-848ba86e0c66',
      payload: { severity: 'error', source: 'vigil', class: 'delivery_failed' },
      links: [{ href: `${APP}/u/detections/det-1`, text: 'Open detection in Vigil' }],
    });
    expect((event.payload.summary as string).length).toBeLessThanOrEqual(PAGERDUTY_LIMITS.summary);
  });
});

describe('renderFailureEmail', () => {
  it('escapes every value in the HTML part and keeps the text part plain', () => {
    const email = renderFailureEmail(
      aFailure({ target: { channel: 'webhook', id: 'p', name: '<script>alert(1)</script>' } }),
      APP,
    );
    expect(email.subject).toBe('[Vigil] Delivery to <script>alert(1)</script> failed');
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;');
    expect(email.text).toContain(`Open detection: ${APP}/u/detections/det-1`);
  });
});
