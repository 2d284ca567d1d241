import {
  detectionBodyLines,
  detectionTitle,
  type DetectionNotice,
} from './detection-webhook-payload';
import { detectionUrl, quantity } from './notification-text';
import { emailDocument, formatUtc, html, joinHtml, type RenderedEmail } from './rendered-email';

/** One email about one detection (Immediate and Threshold modes): the webhook's facts, readable. */
export function renderDetectionEmail(notice: DetectionNotice, appUrl: string): RenderedEmail {
  const subject = detectionTitle(notice);
  const url = detectionUrl(appUrl, notice.detectionId);
  const lines = detectionBodyLines(notice);
  const users = notice.affectedUsers.map((user) => user.email);
  const more =
    notice.truncatedCount > 0
      ? [
          `... and ${quantity(notice.truncatedCount, 'more new event')}, listed in the web application.`,
        ]
      : [];

  const text = [
    ...lines,
    '',
    `Affected users: ${users.join(', ')}`,
    '',
    'Events attached:',
    ...notice.events.map(
      (event) => `- ${formatUtc(event.timestamp)}  ${event.personName}: ${event.description}`,
    ),
    ...more,
    '',
    `Open the detection: ${url}`,
  ].join('\n');

  const content = html`<h2 style="margin:0 0 12px">${subject}</h2>
    ${joinHtml(lines.map((line) => html`<p style="margin:0">${line}</p>`))}
    <p>Affected users: ${users.join(', ')}</p>
    <p><a href="${url}">Open the detection</a></p>
    <table style="border-collapse:collapse" cellpadding="4">
      <tr>
        <th align="left">Time</th>
        <th align="left">Person</th>
        <th align="left">Description</th>
      </tr>
      ${joinHtml(
        notice.events.map(
          (event) =>
            html`<tr>
              <td>${formatUtc(event.timestamp)}</td>
              <td>${event.personName}</td>
              <td>${event.description}</td>
            </tr>`,
        ),
      )}
    </table>
    ${joinHtml(more.map((line) => html`<p>${line}</p>`))}`;

  return { subject, text, html: emailDocument(subject, content) };
}
