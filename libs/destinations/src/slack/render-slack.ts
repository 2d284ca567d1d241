import type { DestinationNotification, RenderContext } from '../destination-notification';
import { viewOf, type EventView, type NotificationView } from '../notification-view';
import { jsonBody, type RenderedBody } from '../rendered-body';
import { fitLines } from '../text/fit-lines';
import { escapeAndTruncate } from '../text/truncate-text';
import { escapeSlackCodePoint } from './escape-slack-text';
import { SLACK_LIMITS, SLACK_RENDER_LIMITS } from './slack-limits';
import type { SlackBlock, SlackMessage, SlackPlainText } from './slack-message';

/**
 * The notification as a Slack incoming-webhook message (Block Kit): a header with the title, the
 * body lines, the latest events as a list and a button to the detection or investigation.
 * User text only ever goes into plain_text objects, escaped for Slack, so it shows as typed:
 * no bold, links or mentions. Pure.
 */
export function renderSlack(
  notification: DestinationNotification,
  context: RenderContext,
): RenderedBody {
  const newEventCount = notification.subject === 'detection' ? notification.eventCount : 0;
  return renderSlackView(viewOf(notification, context.appUrl), newEventCount);
}

/** A view as a Slack message (renderSlack's, and other messages' such as a failed delivery). */
export function renderSlackView(view: NotificationView, newEventCount: number): RenderedBody {
  const blocks: SlackBlock[] = [
    { type: 'header', text: plain(view.title, SLACK_LIMITS.headerText) },
    { type: 'section', text: plain(bodyText(view), SLACK_LIMITS.sectionText) },
    ...eventBlocks(view.events, newEventCount),
    ...buttonBlocks(view),
  ];
  const message: SlackMessage = {
    text: slackText([view.title, ...view.lines].join('\n'), SLACK_RENDER_LIMITS.fallbackText),
    mrkdwn: false,
    unfurl_links: false,
    unfurl_media: false,
    blocks,
  };
  return jsonBody(message);
}

function slackText(text: string, max: number): string {
  return escapeAndTruncate(text, max, escapeSlackCodePoint);
}

function plain(text: string, max: number): SlackPlainText {
  return { type: 'plain_text', text: slackText(text, max), emoji: false };
}

function bodyText(view: NotificationView): string {
  return [...view.lines, ...view.facts.map(([label, value]) => `${label}: ${value}`)].join('\n');
}

function eventBlocks(events: readonly EventView[], newEventCount: number): SlackBlock[] {
  const lines = fitLines(
    events
      .slice(0, SLACK_RENDER_LIMITS.events)
      .map((event) =>
        slackText(
          `\u2022 ${event.personName} \u2014 ${event.description} (${event.happened})`,
          SLACK_RENDER_LIMITS.eventLine,
        ),
      ),
    SLACK_LIMITS.sectionText,
  );
  if (lines.length === 0) return [];
  const label =
    lines.length < newEventCount
      ? `*Latest ${lines.length} of ${newEventCount} new events*`
      : '*New events*';
  return [
    { type: 'section', text: { type: 'mrkdwn', text: label } },
    { type: 'section', text: { type: 'plain_text', text: lines.join('\n'), emoji: false } },
  ];
}

/** No button when the link is longer than a button may hold: Slack would refuse the message. */
function buttonBlocks(view: NotificationView): SlackBlock[] {
  if (view.url.length > SLACK_LIMITS.buttonUrl) return [];
  return [
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: plain(view.actionLabel, SLACK_LIMITS.buttonText),
          url: view.url,
          action_id: 'open-in-vigil',
          style: 'primary',
        },
      ],
    },
  ];
}
