import { type FallbackDestinationView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { formatDate } from '../views/format-date';
import { cardNotice } from '../views/notice';
import { describeFallback, fallbackSentence } from './fallback-destination-form';

const NONE = 'None: a delivery that dies after its last retry is only listed as dead.';

/**
 * The fallback destination in force, as a card: the global one (Settings → Integrations) or a
 * detection's, which says when it uses the global one. Admins get a link to change it.
 */
export function fallbackDestinationSection(model: {
  readonly global: FallbackDestinationView | null;
  /** Given for a detection's page: its own destination (null: it uses the global one). */
  readonly detection?: { readonly own: FallbackDestinationView | null };
  readonly changeHref?: string;
  readonly notice?: string;
}): SafeHtml {
  const { global, detection } = model;
  const shown = detection === undefined ? global : detection.own;
  const text =
    detection !== undefined && shown === null
      ? `Uses the global fallback (${global === null ? 'none' : describeFallback(global)}).`
      : shown === null
        ? NONE
        : fallbackSentence(shown);
  return html`<section class="card" id="fallback" aria-labelledby="fallback-heading">
    <div class="card-header split">
      <div>
        <h2 id="fallback-heading">Fallback destination</h2>
        <p>
          ${
            detection === undefined
              ? 'Who is told, once, when a delivery dies after its last retry: with where it was going and why it failed.'
              : 'Who is told when a delivery about this detection dies after its last retry, instead of the global fallback.'
          }
        </p>
      </div>
      ${
        model.changeHref !== undefined &&
        html`<a
          class="button"
          href="${model.changeHref}"
          aria-label="Change the fallback destination"
          >Change…</a
        >`
      }
    </div>
    ${cardNotice(model.notice)}
    <div class="card-body">
      <p class="fallback-details">${text}</p>
      ${
        shown !== null &&
        html`<p class="muted fallback-details">Changed ${formatDate(shown.updatedAt)}</p>`
      }
    </div>
  </section>`;
}
