import { roleLabel, type UserView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { confirmCard } from '../views/confirm-card';
import { timeElement } from '../views/format-date';
import { appPage, pageHeader } from '../views/layout';
import { memberStatusBadge } from './member-status-badge';
import { MEMBERS_BREADCRUMB, MEMBERS_PATH, memberPath } from './member-paths';

/** The question before deleting a member: what it ends, and who it is. */
export function deleteMemberPage(viewer: Viewer, user: UserView): SafeHtml {
  const you = user.id === viewer.session.user.id;
  return appPage(
    viewer,
    { title: `Delete ${user.name}`, path: MEMBERS_PATH },
    html`${pageHeader({
      breadcrumb: [...MEMBERS_BREADCRUMB, { label: user.name, href: memberPath(user) }],
      title: 'Delete member',
    })}
    ${confirmCard({
      question: `Delete ${user.name}?`,
      warning: you
        ? 'This is your own account: you are signed out at once and cannot sign in again. The audit log keeps what you did. This cannot be undone.'
        : 'Their sessions end at once and they can no longer sign in. The audit log keeps what they did. This cannot be undone.',
      severity: 'error',
      details: html`<dt>Email</dt>
        <dd>${user.email}</dd>
        <dt>Role</dt>
        <dd>${roleLabel(user.role)}</dd>
        <dt>Status</dt>
        <dd>${memberStatusBadge(user.status)}</dd>
        <dt>Last sign-in</dt>
        <dd>${timeElement(user.lastSignInAt)}</dd>`,
      action: `${memberPath(user)}/delete`,
      csrfToken: viewer.csrfToken,
      button: 'Delete member',
      cancelHref: memberPath(user),
    })}`,
  );
}
