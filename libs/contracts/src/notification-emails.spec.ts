import type { InvestigationEmailDecision } from './investigation-decision';
import type { EmailDecision } from './notification-decision';
import { renderDetectionEmail } from './detection-email';
import { renderDigestEmail } from './digest-email';
import { renderInvestigationEmail } from './investigation-email';

const T0 = Date.UTC(2024, 4, 1, 10, 0, 0);
const MINUTE = 60_000;
const APP = 'https://vigil.example.com';

function anEmailDecision(overrides: Partial<EmailDecision> = {}): EmailDecision {
  return {
    kind: 'email',
    channel: 'email',
    notificationId: 'n-1',
    detectionId: 'det-42',
    detectionName: 'Impossible travel',
    previousCount: 0,
    currentCount: 2,
    since: T0,
    eventCount: 2,
    userCount: 1,
    affectedUsers: [{ email: 'ada@example.com', name: 'Ada Lovelace' }],
    decidedAt: T0 + 5 * MINUTE,
    events: [
      {
        id: 'evt-1',
        personName: 'Ada Lovelace',
        personEmail: 'ada@example.com',
        description: 'Sign-in from a new country',
        timestamp: T0,
      },
      {
        id: 'evt-2',
        personName: 'Ada Lovelace',
        personEmail: 'ada@example.com',
        description: 'Sign-in from <Mars> & beyond',
        timestamp: T0 + MINUTE,
      },
    ],
    truncatedCount: 0,
    maxRiskScore: 7.5,
    sources: ['okta'],
    recipients: ['soc@example.com'],
    ...overrides,
  };
}

describe('renderDetectionEmail', () => {
  it('uses the webhook title as subject and lists the facts, link and events in the text', () => {
    const email = renderDetectionEmail(anEmailDecision(), APP);
    expect(email.subject).toBe('Impossible travel: 2 new events');
    expect(email.text.split('\n')).toEqual([
      'Detection "Impossible travel" has new events.',
      'New events since last notification: 2',
      'Events attached: 2',
      'Affected users: 1',
      'First notification for this detection.',
      '',
      'Affected users: ada@example.com',
      '',
      'Events attached:',
      '- 2024-05-01 10:00:00 UTC  Ada Lovelace: Sign-in from a new country',
      '- 2024-05-01 10:01:00 UTC  Ada Lovelace: Sign-in from <Mars> & beyond',
      '',
      'Open the detection: https://vigil.example.com/u/detections/det-42',
    ]);
  });

  it('escapes every value in the HTML part', () => {
    const email = renderDetectionEmail(
      anEmailDecision({ detectionName: '<script>alert(1)</script>' }),
      APP,
    );
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;: 2 new events');
    expect(email.html).toContain('Sign-in from &lt;Mars&gt; &amp; beyond');
    expect(email.html).toContain('<a href="https://vigil.example.com/u/detections/det-42">');
    expect(email.html).toContain('2024-05-01 10:01:00 UTC');
  });

  it('says how many new events were left out of a capped list', () => {
    const email = renderDetectionEmail(
      anEmailDecision({ currentCount: 9, eventCount: 9, truncatedCount: 7 }),
      APP,
    );
    expect(email.text).toContain('... and 7 more new events, listed in the web application.');
    expect(email.html).toContain('... and 7 more new events');
  });

  it('says "1 more new event" when one was left out', () => {
    const email = renderDetectionEmail(
      anEmailDecision({ currentCount: 3, eventCount: 3, truncatedCount: 1 }),
      APP,
    );
    expect(email.text).toContain('... and 1 more new event, listed in the web application.');
  });

  it('counts the time since the channel’s last notification after its first', () => {
    const email = renderDetectionEmail(anEmailDecision({ previousCount: 1, eventCount: 1 }), APP);
    expect(email.text.split('\n')[4]).toBe('Time since last notification: 5 minutes');
  });
});

describe('renderDigestEmail', () => {
  it('shows each detection with new count, total count, affected users and link', () => {
    const email = renderDigestEmail(
      {
        windowStart: T0,
        windowEnd: T0 + 60 * MINUTE,
        lines: [
          {
            detectionId: 'det-1',
            detectionName: 'Impossible travel',
            newCount: 3,
            totalCount: 10,
            userCount: 2,
            affectedUsers: ['ada@example.com', 'alan@example.com'],
          },
          {
            detectionId: 'det-2',
            detectionName: 'Mass <download>',
            newCount: 1,
            totalCount: 1,
            userCount: 1,
            affectedUsers: ['grace@example.com'],
          },
        ],
      },
      APP,
    );
    expect(email.subject).toBe('Vigil digest: 2 detections with new events');
    expect(email.text.split('\n')).toEqual([
      'New events between 2024-05-01 10:00:00 UTC and 2024-05-01 11:00:00 UTC.',
      '',
      'Impossible travel',
      '  New events: 3',
      '  Total events: 10',
      '  Affected users (2): ada@example.com, alan@example.com',
      '  https://vigil.example.com/u/detections/det-1',
      '',
      'Mass <download>',
      '  New events: 1',
      '  Total events: 1',
      '  Affected users (1): grace@example.com',
      '  https://vigil.example.com/u/detections/det-2',
    ]);
    expect(email.html).toContain('>Mass &lt;download&gt;</a>');
    expect(email.html).toContain('href="https://vigil.example.com/u/detections/det-1"');
    expect(email.html).not.toContain('<download>');
  });

  it('uses the singular for a single detection', () => {
    const line = {
      detectionId: 'd',
      detectionName: 'D',
      newCount: 1,
      totalCount: 1,
      userCount: 0,
      affectedUsers: [],
    };
    const email = renderDigestEmail(
      { windowStart: T0, windowEnd: T0 + MINUTE, lines: [line] },
      APP,
    );
    expect(email.subject).toBe('Vigil digest: 1 detection with new events');
  });
});

describe('renderInvestigationEmail', () => {
  const decision: InvestigationEmailDecision = {
    kind: 'investigation-email',
    channel: 'email',
    notificationId: 'n-2',
    fingerprint: 'f',
    investigationId: 'inv-7',
    status: 'completed',
    outcome: 'no_risk',
    headline: 'Travel <check>',
    personName: 'Ada Lovelace',
    personEmail: 'ada@example.com',
    detectionId: 'det-42',
    detectionName: 'Impossible travel',
    riskScore: 1.5,
    decidedAt: T0,
    recipients: ['soc@example.com'],
  };

  it('carries the title, body lines, person, detection and link', () => {
    const email = renderInvestigationEmail(decision, APP);
    expect(email.subject).toBe('Investigation Update: Travel <check>');
    expect(email.text.split('\n')).toEqual([
      'The investigation for Ada Lovelace has been completed.',
      'Outcome: No risk',
      'Risk score: 1.5',
      'Person: Ada Lovelace <ada@example.com>',
      'Detection: Impossible travel',
      '',
      'Open the investigation: https://vigil.example.com/u/investigations/inv-7',
    ]);
    expect(email.html).toContain('Investigation Update: Travel &lt;check&gt;');
    expect(email.html).toContain('Ada Lovelace &lt;ada@example.com&gt;');
    expect(email.html).toContain('href="https://vigil.example.com/u/investigations/inv-7"');
  });
});
