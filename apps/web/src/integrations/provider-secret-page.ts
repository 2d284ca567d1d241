import { type WebhookProviderView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { appPage, pageHeader } from '../views/layout';
import { secretShownOnce } from '../views/secret-shown-once';
import { formatDate } from '../views/format-date';
import { warningStatus } from '../views/warning-status';
import { INTEGRATIONS_BREADCRUMB, INTEGRATIONS_PATH, providerPath } from './integrations-list-page';
import { kindLabel } from './webhook-provider-form';

function afterShown(provider: WebhookProviderView, reason: 'enrolled' | 'rotated'): string {
  if (reason === 'enrolled') return 'If it is lost, rotate the secret to get a new one.';
  const until = provider.previousSecretValidUntil;
  return until === undefined
    ? 'Requests are signed with it from now on; the previous secret no longer signs.'
    : `Requests are signed with it from now on, and with the previous secret too until ${formatDate(until)}: give the endpoint the new one before then.`;
}

/** Where the secret page's history entry points once the secret has been shown. */
export const SECRET_SHOWN_PATH = `${INTEGRATIONS_PATH}/secret-shown`;

/** After enrollment or rotation: the signing secret, this once. */
export function providerSecretPage(
  viewer: Viewer,
  provider: WebhookProviderView,
  secret: string,
  reason: 'enrolled' | 'rotated',
): SafeHtml {
  const title = reason === 'enrolled' ? 'Provider enrolled' : 'Signing secret rotated';
  return appPage(
    viewer,
    {
      title,
      path: INTEGRATIONS_PATH,
      head: html`<meta name="vigil-replace-url" content="${SECRET_SHOWN_PATH}" />`,
    },
    html`${pageHeader({ breadcrumb: INTEGRATIONS_BREADCRUMB, title })}
    ${warningStatus(
      'Copy the signing secret now',
      `This is the only time it is shown. ${afterShown(provider, reason)}`,
    )}
    ${secretShownOnce({
      owner: provider.name,
      id: 'signing-secret',
      label: 'Signing secret',
      value: secret,
      details: html`<dt>URL</dt>
        <dd><span class="mono">${provider.url}</span></dd>
        <dt>Kind</dt>
        <dd>${kindLabel(provider.kind)}</dd>
        <dt>Verify with</dt>
        <dd>
          The Standard Webhooks headers <span class="mono">webhook-id</span>,
          <span class="mono">webhook-timestamp</span> and
          <span class="mono">webhook-signature</span> (HMAC-SHA256 with this secret).
        </dd>`,
      doneHref: providerPath(provider),
    })}`,
  );
}

/** Where the secret page's history entry points once the secret has been shown. */
export function secretGonePage(viewer: Viewer): SafeHtml {
  return appPage(
    viewer,
    { title: 'Signing secret', path: INTEGRATIONS_PATH },
    html`${pageHeader({ breadcrumb: INTEGRATIONS_BREADCRUMB, title: 'Signing secret' })}
      ${warningStatus(
        'The signing secret is no longer shown',
        'A secret is shown only once, right after enrollment or rotation. If it was not copied, rotate the provider’s secret to get a new one.',
      )}
      <p><a class="button" href="${INTEGRATIONS_PATH}">Back to Integrations</a></p>`,
  );
}
