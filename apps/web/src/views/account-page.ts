import { roleLabel } from '@vigil/control-plane';
import { html } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { timeElement } from './format-date';
import { accessPage } from './access-page';

export const ACCOUNT_PATH = '/settings/access/account';

/** Settings → Access → Your account: who is signed in and what the role allows. */
export function accountPage(viewer: Viewer) {
  const { session } = viewer;
  const { user } = session;
  return accessPage(
    viewer,
    { title: 'Your account', path: ACCOUNT_PATH },
    html`<section class="card" aria-labelledby="account-heading">
      <div class="card-header"><h2 id="account-heading">Your account</h2></div>
      <div class="card-body">
        <dl class="details">
          <dt>Name</dt>
          <dd>${user.name}</dd>
          <dt>Email</dt>
          <dd>${user.email}</dd>
          <dt>Role</dt>
          <dd>${roleLabel(user.role)}</dd>
          <dt>Signed in</dt>
          <dd>${timeElement(session.createdAt)}</dd>
          <dt>Session ends</dt>
          <dd>
            ${timeElement(session.expiresAt)} at the latest, or after 12 hours without activity
          </dd>
        </dl>
      </div>
      ${
        user.role !== 'admin' &&
        html`<div class="card-footer">
          <p class="muted">
            API keys are managed by workspace admins. Ask one of them if a script needs access to
            the query API.
          </p>
        </div>`
      }
    </section>`,
  );
}
