import type { InvestigationUpdate } from './investigation-decision';
import { investigationBodyLines, investigationTitle } from './investigation-webhook-payload';
import { investigationUrl, outcomeLabel } from './notification-text';
import { emailDocument, html, joinHtml, type RenderedEmail } from './rendered-email';

/** The investigation notification as an email: the §6.3 facts and a link to the report. */
export function renderInvestigationEmail(
  update: InvestigationUpdate,
  appUrl: string,
): RenderedEmail {
  const subject = investigationTitle(update);
  const url = investigationUrl(appUrl, update.investigationId);
  const lines = [
    ...investigationBodyLines(update),
    `Person: ${update.personName} <${update.personEmail}>`,
    `Detection: ${update.detectionName}`,
  ];
  const text = [...lines, '', `Open the investigation: ${url}`].join('\n');
  const content = html`<h2 style="margin:0 0 12px">${subject}</h2>
    ${joinHtml(lines.map((line) => html`<p style="margin:0">${line}</p>`))}
    <p>Outcome: <strong>${outcomeLabel(update.outcome)}</strong></p>
    <p><a href="${url}">Open the investigation</a></p>`;
  return { subject, text, html: emailDocument(subject, content) };
}
