import fc from 'fast-check';
import {
  isWellFormed,
  notifications,
  stringsIn,
} from '../../../../test/support/destination-arbitraries';
import type { DestinationNotification } from '../destination-notification';
import {
  aContext,
  aDetectionNotification,
  anInvestigationNotification,
  manyEvents,
  ROUTING_KEY,
} from '../testing/notifications';
import { utf8Length } from '../text/utf8-length';
import type { PagerDutyEvent } from './pagerduty-event';
import { PAGERDUTY_LIMITS, PAGERDUTY_RENDER_LIMITS } from './pagerduty-limits';
import { renderPagerDuty, type PagerDutyOptions } from './render-pagerduty';
import { DEFAULT_SEVERITY_MAPPING } from './severity-mapping';

function pagerDutyOptions(overrides: Partial<PagerDutyOptions> = {}): PagerDutyOptions {
  return {
    routingKey: ROUTING_KEY,
    severityMapping: DEFAULT_SEVERITY_MAPPING,
    source: 'vigil',
    ...overrides,
  };
}

function pagerDutyEvent(
  notification: DestinationNotification,
  options: Partial<PagerDutyOptions> = {},
): PagerDutyEvent {
  const rendered = renderPagerDuty(notification, aContext(), pagerDutyOptions(options));
  expect(rendered.contentType).toBe('application/json');
  return JSON.parse(rendered.body) as PagerDutyEvent;
}

describe('renderPagerDuty for a detection', () => {
  it('triggers the detection’s alert with its summary, severity, counts and a link', () => {
    expect(pagerDutyEvent(aDetectionNotification())).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: 'vigil-detection-det-42',
      payload: {
        summary: 'Impossible travel: 2 new events',
        source: 'vigil',
        severity: 'error',
        timestamp: '2024-05-01T12:05:00.000Z',
        component: 'okta',
        group: 'Impossible travel',
        class: 'detection',
        custom_details: {
          detection_id: 'det-42',
          detection_name: 'Impossible travel',
          new_events: 2,
          previous_count: 3,
          current_count: 5,
          affected_users: 2,
          max_risk_score: 7.5,
          sources: ['okta'],
          first_notification: false,
          last_notification_at: '2024-05-01T10:00:00.000Z',
          event_ids: ['evt-5', 'evt-4'],
          unlisted_events: 0,
          notification_id: '3f2c1a9e-0000-5000-8000-000000000001',
          delivery_id: '0b7c1f5e-3a55-4a8e-9a1c-2f0f1b9c7d11',
        },
      },
      client: 'Vigil',
      client_url: 'https://vigil.example.com',
      links: [
        { href: 'https://vigil.example.com/u/detections/det-42', text: 'Open detection in Vigil' },
      ],
    });
  });

  it('marks the first notification as first, with no last notification time', () => {
    const details = pagerDutyEvent(aDetectionNotification({ previousCount: 0, since: 0 })).payload
      .custom_details;
    expect(details).toMatchObject({ first_notification: true, last_notification_at: null });
  });

  it('maps the highest risk score through the destination’s mapping', () => {
    const mapping = {
      bands: [
        { from: 0, to: 8, severity: 'warning' as const },
        { from: 8, to: 10, severity: 'critical' as const },
      ],
      unscored: 'info' as const,
    };
    const severityOf = (maxRiskScore: number | null) =>
      pagerDutyEvent(aDetectionNotification({ maxRiskScore }), { severityMapping: mapping }).payload
        .severity;
    expect(severityOf(7.99)).toBe('warning');
    expect(severityOf(8)).toBe('critical');
    expect(severityOf(10)).toBe('critical');
    expect(severityOf(null)).toBe('info');
  });

  it('names the configured source, or vigil when it is blank', () => {
    expect(pagerDutyEvent(aDetectionNotification(), { source: 'soc-vigil' }).payload.source).toBe(
      'soc-vigil',
    );
    expect(pagerDutyEvent(aDetectionNotification(), { source: '  ' }).payload.source).toBe('vigil');
  });

  it('joins the sources as the component, and leaves it out when there is none', () => {
    expect(
      pagerDutyEvent(aDetectionNotification({ sources: ['okta', 'github'] })).payload.component,
    ).toBe('okta, github');
    expect(pagerDutyEvent(aDetectionNotification({ sources: [] })).payload).not.toHaveProperty(
      'component',
    );
  });

  it('lists the newest event ids first and counts the ones it leaves out', () => {
    const details = pagerDutyEvent(
      aDetectionNotification({ events: manyEvents(1500), eventCount: 9000, truncatedCount: 7500 }),
    ).payload.custom_details;
    const ids = details.event_ids as string[];
    expect(ids).toHaveLength(PAGERDUTY_RENDER_LIMITS.eventIds);
    expect(ids[0]).toBe('evt-1500');
    expect(details.unlisted_events).toBe(9000 - PAGERDUTY_RENDER_LIMITS.eventIds);
  });

  it('keeps event ids whole and stops listing them at the byte budget', () => {
    const events = manyEvents(200).map((event, i) => ({
      ...event,
      id: `${i}-${'x'.repeat(1000)}`,
    }));
    const details = pagerDutyEvent(aDetectionNotification({ events, eventCount: 200 })).payload
      .custom_details;
    const ids = details.event_ids as string[];
    expect(ids.length).toBeLessThan(200);
    expect(ids[0]).toBe(`199-${'x'.repeat(1000)}`);
    expect(ids.every((id) => id.endsWith('x'.repeat(1000)))).toBe(true);
    expect(utf8Length(JSON.stringify(ids))).toBeLessThanOrEqual(
      PAGERDUTY_RENDER_LIMITS.eventIdsBytes,
    );
  });

  it('cuts the summary to 1024 characters', () => {
    const summary = pagerDutyEvent(aDetectionNotification({ detectionName: 'n'.repeat(5000) }))
      .payload.summary;
    expect(summary.length).toBeLessThanOrEqual(PAGERDUTY_LIMITS.summary);
  });

  it('passes user text as plain text: JSON is its only escaping', () => {
    const hostile = '<b>*x*</b> & <!channel>';
    const event = pagerDutyEvent(aDetectionNotification({ detectionName: `${hostile}\n2nd line` }));
    expect(event.payload.summary).toBe(`${hostile} 2nd line: 2 new events`);
    expect(event.payload.group).toBe(`${hostile} 2nd line`);
  });

  it('leaves the timestamp out when the decision time is not a date', () => {
    expect(
      pagerDutyEvent(aDetectionNotification({ decidedAt: Number.MAX_VALUE })).payload,
    ).not.toHaveProperty('timestamp');
  });
});

describe('renderPagerDuty for an investigation', () => {
  it('triggers the investigation’s alert with the investigation’s facts and risk score', () => {
    expect(pagerDutyEvent(anInvestigationNotification())).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: 'vigil-investigation-inv-7',
      payload: {
        summary: 'Investigation Update: Credential stuffing against Ada',
        source: 'vigil',
        severity: 'critical',
        timestamp: '2024-05-01T10:30:00.000Z',
        group: 'Impossible travel',
        class: 'investigation',
        custom_details: {
          investigation_id: 'inv-7',
          status: 'completed',
          outcome: 'confirmed_risk',
          headline: 'Credential stuffing against Ada',
          person_name: 'Ada Lovelace',
          person_email: 'ada@example.com',
          detection_id: 'det-42',
          detection_name: 'Impossible travel',
          risk_score: 9.2,
          notification_id: '3f2c1a9e-0000-5000-8000-000000000002',
          delivery_id: '0b7c1f5e-3a55-4a8e-9a1c-2f0f1b9c7d11',
        },
      },
      client: 'Vigil',
      client_url: 'https://vigil.example.com',
      links: [
        {
          href: 'https://vigil.example.com/u/investigations/inv-7',
          text: 'Open investigation in Vigil',
        },
      ],
    });
  });
});

describe('renderPagerDuty for any notification', () => {
  it('stays within every documented limit, with well-formed text', () => {
    fc.assert(
      fc.property(notifications(), (notification) => {
        const rendered = renderPagerDuty(notification, aContext(), pagerDutyOptions());
        expect(utf8Length(rendered.body)).toBeLessThanOrEqual(PAGERDUTY_LIMITS.payloadBytes);
        const event = JSON.parse(rendered.body) as PagerDutyEvent;
        expect(event.dedup_key.length).toBeLessThanOrEqual(PAGERDUTY_LIMITS.dedupKey);
        expect(event.payload.summary.length).toBeLessThanOrEqual(PAGERDUTY_LIMITS.summary);
        expect(event.payload.summary.length).toBeGreaterThan(0);
        expect(event.payload.source.length).toBeGreaterThan(0);
        expect(['critical', 'error', 'warning', 'info']).toContain(event.payload.severity);
        for (const [, text] of stringsIn(event)) expect(isWellFormed(text)).toBe(true);
      }),
    );
  });
});
