import { emailDocument, html, joinHtml, type RenderedEmail } from '@vigil/contracts';
import type { DeliveryFailure } from './delivery-failure';
import { failureView } from './failure-view';

/**
 * The email fallback recipients receive for a delivery that died: the same text as the chat
 * messages, every value escaped in the HTML part. Pure.
 */
export function renderFailureEmail(failure: DeliveryFailure, appUrl: string): RenderedEmail {
  const view = failureView(failure, appUrl);
  const facts = view.facts.map(([label, value]) => `${label}: ${value}`);
  return {
    subject: `[Vigil] ${view.title}`,
    text: [...view.lines, ...facts, '', `${view.actionLabel}: ${view.url}`].join('\n'),
    html: emailDocument(
      view.title,
      html`<p>${view.lines[0]}</p>
        <ul>
          ${joinHtml([...view.lines.slice(1), ...facts].map((line) => html`<li>${line}</li>`))}
        </ul>
        <p><a href="${view.url}">${view.actionLabel}</a></p>`,
    ),
  };
}
