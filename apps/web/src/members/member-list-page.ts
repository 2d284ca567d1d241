import { roleLabel, type UserView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type MemberList } from '@vigil/workspace';
import { type Viewer } from '../security/signed-in-session.decorator';
import { dataTable } from '../views/data-table';
import { icons } from '../views/icons';
import { appPage, pageHeader } from '../views/layout';
import { notice } from '../views/notice';
import { tableDate } from '../views/table-date';
import { memberStatusBadge } from './member-status-badge';
import { MEMBERS_PATH, memberActionsPath, memberPath } from './member-paths';

function memberRow(user: UserView, viewer: Viewer, lastAdmin: boolean): SafeHtml {
  const you = user.id === viewer.session.user.id;
  return html`<tr data-user-id="${user.id}">
    <td class="cell-name">
      <a href="${memberPath(user)}">${user.name}</a>${you && html` <span class="tag">You</span>`}
      <span class="cell-sub">${user.email}</span>
    </td>
    <td>
      ${roleLabel(user.role)}${lastAdmin && html`<span class="cell-sub">The only active admin</span>`}
    </td>
    <td>${memberStatusBadge(user.status)}</td>
    <td class="cell-date">${tableDate(user.lastSignInAt)}</td>
    <td class="cell-date">${tableDate(user.createdAt)}</td>
    <td class="cell-actions">
      <a
        class="button button-small"
        href="${memberActionsPath(user)}"
        aria-label="Audit log of ${user.name}"
        >Audit log</a
      >
    </td>
  </tr>`;
}

/** Settings → Members: everyone who signs in, with their role, status and last sign-in. */
export function memberListPage(viewer: Viewer, list: MemberList, message?: string): SafeHtml {
  const add = html`<a class="button button-primary" href="${MEMBERS_PATH}/new"
    >${icons.plus}Add member</a
  >`;
  return appPage(
    viewer,
    { title: 'Members', path: MEMBERS_PATH },
    html`${pageHeader({
        breadcrumb: [{ label: 'Settings' }],
        title: 'Members',
        description:
          'Who signs in to this workspace and what they may do. Workspace admins manage members, API keys, settings and integrations; members see everything and change nothing.',
        actions: add,
      })}
      ${notice(message)}
      <section class="card" aria-labelledby="members-heading">
        <div class="card-header">
          <h2 id="members-heading">Members</h2>
          <p>
            Open a member to change their role, disable them, reset their password or delete them.
            Changes apply to their next request. Vigil always keeps one active admin.
          </p>
        </div>
        ${dataTable({
          caption: 'Members: name, role, status, last sign-in, created',
          className: 'members',
          columns: [
            { label: 'Member' },
            { label: 'Role' },
            { label: 'Status' },
            { label: 'Last sign-in' },
            { label: 'Created' },
            { label: 'Actions', hidden: true },
          ],
          rows: list.users.map((user) =>
            memberRow(
              user,
              viewer,
              list.activeAdmins === 1 && user.role === 'admin' && user.status !== 'disabled',
            ),
          ),
        })}
      </section>`,
  );
}
