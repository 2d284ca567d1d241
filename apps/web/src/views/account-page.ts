import { roleLabel, type ActiveSession } from '@vigil/control-plane';
import { timeElement } from './format-date';
import { html } from '@vigil/http';
import { appPage, pageHeader, tabs } from './layout';
import { accessTabsFor } from './navigation';

const PATH = '/settings/access/account';

/** Settings → Access → Your account: who is signed in and what the role allows. */
export function accountPage(session: ActiveSession, csrfToken: string) {
  const { user } = session;
  return appPage(
    session,
    { title: 'Your account', csrfToken, path: PATH },
    html`${pageHeader({
        breadcrumb: [{ label: 'Settings' }, { label: 'Access' }],
        title: 'Access',
        description: 'Who can use this workspace, and how scripts reach the query API.',
      })}
      ${tabs(accessTabsFor(user), PATH, 'Access')}
      <section class="card" aria-labelledby="account-heading">
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
