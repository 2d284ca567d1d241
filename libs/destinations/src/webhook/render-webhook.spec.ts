import {
  buildDetectionWebhookPayload,
  buildInvestigationWebhookPayload,
  type DetectionNotice,
} from '@vigil/contracts';
import type { InvestigationWebhookDecision, WebhookDecision } from '@vigil/contracts';
import fc from 'fast-check';
import {
  detectionNotifications,
  investigationNotifications,
} from '../../../../test/support/destination-arbitraries';
import {
  aContext,
  aDetectionNotification,
  anInvestigationNotification,
} from '../testing/notifications';
import { toWellFormed } from '../text/sanitize-text';
import { renderWebhook } from './render-webhook';

/** The decision the notifier holds today, without the fields destinations add. */
function asDecision(notice: DetectionNotice): WebhookDecision {
  return {
    ...notice,
    maxRiskScore: null,
    sources: [],
    kind: 'webhook',
    channel: 'webhook',
    providerIds: ['p-1'],
  };
}

describe('renderWebhook', () => {
  const context = aContext();

  it('is byte for byte the SPEC detection payload the notifier sends today', () => {
    const notification = aDetectionNotification();
    const { subject: _subject, maxRiskScore: _score, sources: _sources, ...notice } = notification;
    const today = JSON.stringify(
      buildDetectionWebhookPayload(asDecision(notice), context.delivery, context.appUrl),
    );
    expect(renderWebhook(notification, context)).toEqual({
      contentType: 'application/json',
      body: today,
    });
  });

  it('is byte for byte the SPEC investigation payload the notifier sends today', () => {
    const notification = anInvestigationNotification();
    const { subject: _subject, ...update } = notification;
    const decision: InvestigationWebhookDecision = {
      ...update,
      kind: 'investigation-webhook',
      channel: 'webhook',
      providerIds: ['p-1'],
    };
    const today = JSON.stringify(
      buildInvestigationWebhookPayload(decision, context.delivery, context.appUrl),
    );
    expect(renderWebhook(notification, context).body).toBe(today);
  });

  it('keeps the first notification wording of the SPEC payload (owned by @vigil/contracts)', () => {
    const body = JSON.parse(
      renderWebhook(aDetectionNotification({ previousCount: 0 }), context).body,
    );
    expect(body.notification.body).toMatch(/^First notification for this detection\.$/m);
    expect(body.metadata.since).toBe(aDetectionNotification().since);
  });

  it('adds nothing of the fields other targets need', () => {
    const body = renderWebhook(aDetectionNotification(), context).body;
    expect(body).not.toMatch(/maxRiskScore|max_risk_score|"sources"|subject/);
  });

  // Ids stay well-formed here: the SPEC builders throw on a lone surrogate in an id (a URL
  // cannot encode it), and renderWebhook keeps their behaviour.
  it('leaves hostile text exactly as the SPEC builders do', () => {
    fc.assert(
      fc.property(detectionNotifications(8), (hostile) => {
        const notification = { ...hostile, detectionId: toWellFormed(hostile.detectionId) };
        const { subject: _s, maxRiskScore: _m, sources: _src, ...notice } = notification;
        expect(renderWebhook(notification, context).body).toBe(
          JSON.stringify(
            buildDetectionWebhookPayload(asDecision(notice), context.delivery, context.appUrl),
          ),
        );
      }),
    );
    fc.assert(
      fc.property(investigationNotifications(), (hostile) => {
        const notification = {
          ...hostile,
          investigationId: toWellFormed(hostile.investigationId),
        };
        expect(renderWebhook(notification, context).body).toBe(
          JSON.stringify(
            buildInvestigationWebhookPayload(notification, context.delivery, context.appUrl),
          ),
        );
      }),
    );
  });
});
