import { detectionUrl, quantity } from './notification-text';
import { emailDocument, formatUtc, html, joinHtml, type RenderedEmail } from './rendered-email';

/** One detection's line in a Batch digest (SPEC §6.1 item 2). */
export interface DigestLine {
  detectionId: string;
  detectionName: string;
  /** New events in the window. */
  newCount: number;
  totalCount: number;
  userCount: number;
  affectedUsers: string[];
}

export interface DigestContent {
  windowStart: number;
  windowEnd: number;
  lines: DigestLine[];
}

/** The digest one recipient gets for one batch window: every detection updated in it. */
export function renderDigestEmail(digest: DigestContent, appUrl: string): RenderedEmail {
  const count = digest.lines.length;
  const subject = `Vigil digest: ${quantity(count, 'detection')} with new events`;
  const period = `New events between ${formatUtc(digest.windowStart)} and ${formatUtc(digest.windowEnd)}.`;

  const text = [
    period,
    ...digest.lines.flatMap((line) => [
      '',
      line.detectionName,
      `  New events: ${line.newCount}`,
      `  Total events: ${line.totalCount}`,
      `  Affected users (${line.userCount}): ${line.affectedUsers.join(', ')}`,
      `  ${detectionUrl(appUrl, line.detectionId)}`,
    ]),
  ].join('\n');

  const content = html`<h2 style="margin:0 0 12px">${subject}</h2>
    <p>${period}</p>
    <table style="border-collapse:collapse" cellpadding="4">
      <tr>
        <th align="left">Detection</th>
        <th align="right">New events</th>
        <th align="right">Total events</th>
        <th align="left">Affected users</th>
      </tr>
      ${joinHtml(
        digest.lines.map(
          (line) =>
            html`<tr>
              <td><a href="${detectionUrl(appUrl, line.detectionId)}">${line.detectionName}</a></td>
              <td align="right">${line.newCount}</td>
              <td align="right">${line.totalCount}</td>
              <td>${line.userCount}: ${line.affectedUsers.join(', ')}</td>
            </tr>`,
        ),
      )}
    </table>`;
  return { subject, text, html: emailDocument(subject, content) };
}
