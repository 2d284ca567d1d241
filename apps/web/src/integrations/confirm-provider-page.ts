import { type WebhookProviderView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { confirmCard } from '../views/confirm-card';
import { csrfField } from '../views/csrf-field';
import { formatDate } from '../views/format-date';
import { icons } from '../views/icons';
import { appPage, pageHeader } from '../views/layout';
import { INTEGRATIONS_BREADCRUMB, INTEGRATIONS_PATH, providerPath } from './integrations-list-page';
import { describeOverlap } from './secret-overlap';
import { kindLabel } from './webhook-provider-form';

function providerDetails(provider: WebhookProviderView): SafeHtml {
  return html`<dt>URL</dt>
    <dd><span class="mono">${provider.url}</span></dd>
    <dt>Kind</dt>
    <dd>${kindLabel(provider.kind)}</dd>
    <dt>Enrolled</dt>
    <dd>${formatDate(provider.createdAt)}</dd>`;
}

/**
 * The choice before a rotation: keep the replaced secret signing for the overlap, so the
 * endpoint can switch without failing a delivery, or stop it at once, for a secret that leaked.
 */
function rotateCard(viewer: Viewer, provider: WebhookProviderView, overlapMs: number): SafeHtml {
  const path = providerPath(provider);
  const overlap = overlapMs > 0;
  return html`<section class="card" aria-labelledby="confirm-heading">
    <div class="card-header">
      <h2 id="confirm-heading">Rotate the secret of “${provider.name}”?</h2>
    </div>
    <div class="card-body">
      <div class="alert alert-warning">
        ${icons.warning}
        <div>
          ${
            overlap
              ? `Requests are signed with a new secret from now on, including retries of earlier deliveries. The previous secret keeps signing beside it for ${describeOverlap(overlapMs)} (both signatures are sent), so the endpoint can switch to the new one, shown once, without rejecting a delivery.`
              : 'Requests are signed with a new secret from now on, including retries of earlier deliveries. The endpoint rejects them until it is given the new secret, which is shown once.'
          }
        </div>
      </div>
      ${
        overlap &&
        html`<p class="muted rotate-hint" id="stop-now-hint">
          If the secret leaked, stop the old one at once: nobody holding it can sign for Vigil any
          more, and the endpoint rejects requests until it has the new secret.
        </p>`
      }
      <dl class="details">${providerDetails(provider)}</dl>
    </div>
    <form class="card-footer" method="post" action="${path}/rotate">
      ${csrfField(viewer.csrfToken)}
      <button class="button button-primary" type="submit" name="previous" value="keep">
        Rotate secret
      </button>
      ${
        overlap &&
        html`<button
          class="button button-danger"
          type="submit"
          name="previous"
          value="stop"
          aria-describedby="stop-now-hint"
        >
          Rotate now and stop the old secret at once
        </button>`
      }
      <a class="button" href="${path}" autofocus>Cancel</a>
    </form>
  </section>`;
}

/** Confirmation before rotating or deleting: both change what the receiving side accepts. */
export function confirmProviderPage(
  viewer: Viewer,
  provider: WebhookProviderView,
  action: 'rotate' | 'delete',
  overlapMs: number,
): SafeHtml {
  const rotate = action === 'rotate';
  const path = providerPath(provider);
  return appPage(
    viewer,
    {
      title: rotate ? `Rotate the secret of ${provider.name}` : `Delete ${provider.name}`,
      path: INTEGRATIONS_PATH,
    },
    html`${pageHeader({
      breadcrumb: [...INTEGRATIONS_BREADCRUMB, { label: provider.name, href: path }],
      title: rotate ? 'Rotate signing secret' : 'Delete webhook provider',
    })}
    ${
      rotate
        ? rotateCard(viewer, provider, overlapMs)
        : confirmCard({
            question: `Delete “${provider.name}”?`,
            warning:
              'Vigil stops sending to this URL at once: pending deliveries to it fail, and Notifications no longer offers it. This cannot be undone.',
            severity: 'error',
            details: providerDetails(provider),
            action: `${path}/delete`,
            csrfToken: viewer.csrfToken,
            button: 'Delete provider',
            cancelHref: path,
          })
    }`,
  );
}
