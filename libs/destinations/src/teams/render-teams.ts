import type { DestinationNotification, RenderContext } from '../destination-notification';
import { viewOf, type EventView, type NotificationView } from '../notification-view';
import { jsonBody, type RenderedBody } from '../rendered-body';
import { escapeAndTruncate } from '../text/truncate-text';
import { utf8Length } from '../text/utf8-length';
import { teamsTextEscaper } from './escape-teams-text';
import { TEAMS_RENDER_LIMITS } from './teams-limits';
import type {
  TeamsCardElement,
  TeamsMessage,
  TeamsOpenUrlAction,
  TeamsTextRun,
} from './teams-message';

/** Longest link the card's button carries; a longer one (an absurd id) leaves the button out. */
const MAX_URL_LENGTH = 2048;

/**
 * The notification as a Teams message with an Adaptive Card (version 1.4, as Teams workflows
 * accept): the title, the body lines, the latest events and a button to the detection or
 * investigation. User text only goes into TextRuns, which render no Markdown. Events are left
 * out, oldest first, until the body fits TEAMS_RENDER_LIMITS.bodyBytes. Pure.
 */
export function renderTeams(
  notification: DestinationNotification,
  context: RenderContext,
): RenderedBody {
  const newEventCount = notification.subject === 'detection' ? notification.eventCount : 0;
  return renderTeamsView(viewOf(notification, context.appUrl), newEventCount);
}

/** A view as a Teams message (renderTeams's, and other messages' such as a failed delivery). */
export function renderTeamsView(view: NotificationView, newEventCount: number): RenderedBody {
  const events = view.events.slice(0, TEAMS_RENDER_LIMITS.events);
  for (let shown = events.length; ; shown--) {
    const rendered = jsonBody(teamsMessage(view, events.slice(0, shown), newEventCount));
    if (shown === 0 || utf8Length(rendered.body) <= TEAMS_RENDER_LIMITS.bodyBytes) {
      return rendered;
    }
  }
}

function teamsMessage(
  view: NotificationView,
  events: readonly EventView[],
  newEventCount: number,
): TeamsMessage {
  const body: TeamsCardElement[] = [
    {
      type: 'RichTextBlock',
      inlines: [run(view.title, TEAMS_RENDER_LIMITS.title, { size: 'Large', weight: 'Bolder' })],
    },
    ...view.lines.map((line): TeamsCardElement => ({
      type: 'RichTextBlock',
      inlines: [run(line, TEAMS_RENDER_LIMITS.line)],
    })),
    ...view.facts.map(([label, value]): TeamsCardElement => ({
      type: 'RichTextBlock',
      inlines: [
        run(`${label}: `, TEAMS_RENDER_LIMITS.line, { weight: 'Bolder' }),
        run(value, TEAMS_RENDER_LIMITS.line),
      ],
    })),
    ...eventElements(events, newEventCount),
  ];
  const actions: TeamsOpenUrlAction[] =
    view.url.length <= MAX_URL_LENGTH
      ? [{ type: 'Action.OpenUrl', title: view.actionLabel, url: view.url }]
      : [];
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body,
          actions,
        },
      },
    ],
  };
}

function run(
  text: string,
  max: number,
  style: Omit<TeamsTextRun, 'type' | 'text'> = {},
): TeamsTextRun {
  return { type: 'TextRun', text: escapeAndTruncate(text, max, teamsTextEscaper()), ...style };
}

function eventElements(events: readonly EventView[], newEventCount: number): TeamsCardElement[] {
  if (events.length === 0) return [];
  const label =
    events.length < newEventCount
      ? `Latest ${events.length} of ${newEventCount} new events`
      : 'New events';
  return [
    { type: 'TextBlock', text: label, wrap: true, weight: 'Bolder', spacing: 'Medium' },
    ...events.map((event): TeamsCardElement => ({
      type: 'RichTextBlock',
      inlines: [
        run(event.personName, TEAMS_RENDER_LIMITS.line, { weight: 'Bolder' }),
        run(` \u2014 ${event.description}`, TEAMS_RENDER_LIMITS.line),
        run(` (${event.happened})`, TEAMS_RENDER_LIMITS.line, { isSubtle: true }),
      ],
    })),
  ];
}
