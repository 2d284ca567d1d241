import { roleLabel, type UserView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { csrfField } from '../views/csrf-field';
import { formatDate, timeElement } from '../views/format-date';
import { icons } from '../views/icons';
import { appPage, pageHeader } from '../views/layout';
import { notice } from '../views/notice';
import { radioGroup } from '../views/radio-group';
import { memberStatusBadge } from './member-status-badge';
import {
  MEMBERS_BREADCRUMB,
  MEMBERS_PATH,
  memberActionsPath,
  memberAuditPath,
  memberPath,
} from './member-paths';
import { ROLE_OPTIONS } from './new-member-page';

export interface MemberPageModel {
  readonly user: UserView;
  /** What the last change did. */
  readonly notice?: string;
  /** Why the last change was refused; nothing changed. */
  readonly refusal?: string;
}

function refusalAlert(message: string | undefined): SafeHtml {
  return html`${
    message &&
    html`<div class="alert alert-error" role="alert" id="refusal" tabindex="-1" data-focus-on-load>
      ${icons.alert}
      <div>
        <h2>Nothing was changed</h2>
        <p>${message}</p>
      </div>
    </div>`
  }`;
}

function detailsCard(user: UserView): SafeHtml {
  return html`<section class="card" aria-labelledby="member-heading">
    <div class="card-header"><h2 id="member-heading">Member</h2></div>
    <div class="card-body">
      <dl class="details">
        <dt>Email</dt>
        <dd>${user.email}</dd>
        <dt>Role</dt>
        <dd>${roleLabel(user.role)}</dd>
        <dt>Status</dt>
        <dd>${memberStatusBadge(user.status)}</dd>
        <dt>Last sign-in</dt>
        <dd>${timeElement(user.lastSignInAt)}</dd>
        <dt>Password</dt>
        <dd>
          ${
            user.hasPassword
              ? html`Set${user.passwordChangedAt && html`, changed ${formatDate(user.passwordChangedAt)}`}`
              : html`<span class="muted">Not chosen yet</span>`
          }
        </dd>
        <dt>Created</dt>
        <dd>${timeElement(user.createdAt)}</dd>
      </dl>
    </div>
    <div class="card-footer">
      <a class="button button-small" href="${memberAuditPath(user)}">Changes to this member</a>
      <a class="button button-small" href="${memberActionsPath(user)}">Actions by this member</a>
    </div>
  </section>`;
}

function roleCard(viewer: Viewer, user: UserView, you: boolean): SafeHtml {
  return html`<section class="card" aria-labelledby="role-heading">
    <form method="post" action="${memberPath(user)}/role">
      ${csrfField(viewer.csrfToken)}
      <div class="card-header">
        <h2 id="role-heading">Role</h2>
        <p>
          ${
            you
              ? 'This is your own role: as a member you could no longer manage members, API keys or settings.'
              : 'Takes effect on their next request: their sessions end, and they sign in again with the new role.'
          }
        </p>
      </div>
      <div class="card-body">
        ${radioGroup({
          name: 'role',
          legend: 'Role',
          value: user.role,
          error: undefined,
          options: ROLE_OPTIONS,
        })}
      </div>
      <div class="card-footer">
        <button class="button button-primary" type="submit">Change role</button>
      </div>
    </form>
  </section>`;
}

/** One action of the Actions card: what it does, and its button. */
function actionRow(id: string, heading: string, text: string, control: SafeHtml): SafeHtml {
  return html`<div class="action-row" role="group" aria-labelledby="${id}">
    <div>
      <h3 id="${id}">${heading}</h3>
      <p class="muted">${text}</p>
    </div>
    ${control}
  </div>`;
}

function postButton(viewer: Viewer, action: string, label: string, style: string): SafeHtml {
  return html`<form method="post" action="${action}">
    ${csrfField(viewer.csrfToken)}
    <button class="button ${style}" type="submit">${label}</button>
  </form>`;
}

/** Disable or enable, reset the password, delete: each with what it does. */
function actionsCard(viewer: Viewer, user: UserView, you: boolean): SafeHtml {
  const path = memberPath(user);
  const disabled = user.status === 'disabled';
  return html`<section class="card" aria-labelledby="actions-heading">
    <div class="card-header"><h2 id="actions-heading">Actions</h2></div>
    ${
      disabled
        ? actionRow(
            'enable-heading',
            'Enable',
            'Disabled: they cannot sign in. Enabling lets them in again with their password.',
            postButton(viewer, `${path}/enable`, 'Enable member', 'button-primary'),
          )
        : actionRow(
            'disable-heading',
            'Disable',
            you
              ? 'Disabling your own account signs you out at once, and you could not sign in again.'
              : 'Ends their sessions at once and refuses their sign-in, until they are enabled again.',
            postButton(viewer, `${path}/disable`, 'Disable member', 'button-subtle-danger'),
          )
    }
    ${
      !disabled &&
      actionRow(
        'reset-heading',
        'Reset password',
        user.hasPassword
          ? 'A link with which they choose a new password, once, within 24 hours. Their password keeps working until then; a newer link replaces an older one.'
          : 'They have not chosen a password yet. A reset link lets them choose one, once, within 24 hours.',
        postButton(viewer, `${path}/reset-password`, 'Reset password', ''),
      )
    }
    ${actionRow(
      'delete-heading',
      'Delete',
      'Removes the member for good. The audit log keeps what they did.',
      html`<a
        class="button button-subtle-danger"
        href="${path}/delete"
        aria-label="Delete member ${user.name}"
        >Delete member</a
      >`,
    )}
  </section>`;
}

/** One member: who they are, and the changes an admin makes (role, access, password, delete). */
export function memberPage(viewer: Viewer, model: MemberPageModel): SafeHtml {
  const { user } = model;
  const you = user.id === viewer.session.user.id;
  return appPage(
    viewer,
    { title: model.refusal ? `Error: ${user.name}` : user.name, path: MEMBERS_PATH },
    html`${pageHeader({
      breadcrumb: MEMBERS_BREADCRUMB,
      title: user.name,
      description: you ? `${user.email} · your own account` : user.email,
    })}
    ${refusalAlert(model.refusal)} ${notice(model.notice)} ${detailsCard(user)}
    ${roleCard(viewer, user, you)} ${actionsCard(viewer, user, you)}`,
  );
}
