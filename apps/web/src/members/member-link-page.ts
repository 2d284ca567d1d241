import { type UserRecord } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type HandedOverLink } from '@vigil/workspace';
import { type Viewer } from '../security/signed-in-session.decorator';
import { formatDate } from '../views/format-date';
import { icons } from '../views/icons';
import { appPage, pageHeader } from '../views/layout';
import { secretShownOnce } from '../views/secret-shown-once';
import { warningStatus } from '../views/warning-status';
import {
  MEMBERS_BREADCRUMB,
  MEMBERS_PATH,
  MEMBER_LINK_SHOWN_PATH,
  memberPath,
} from './member-paths';

/**
 * An invitation or password reset link, shown this once because it was not emailed: no SMTP
 * server is configured, or the email failed (the reason is shown).
 */
export function memberLinkPage(
  viewer: Viewer,
  user: UserRecord,
  link: Extract<HandedOverLink, { via: 'shown' }>,
  purpose: 'invitation' | 'password_reset',
): SafeHtml {
  const invitation = purpose === 'invitation';
  const title = invitation ? 'Member invited' : 'Password reset link';
  return appPage(
    viewer,
    {
      title,
      path: MEMBERS_PATH,
      head: html`<meta name="vigil-replace-url" content="${MEMBER_LINK_SHOWN_PATH}" />`,
    },
    html`${pageHeader({ breadcrumb: MEMBERS_BREADCRUMB, title })}
    ${
      link.emailFailure &&
      html`<div class="alert alert-error" role="alert">
        ${icons.alert}
        <div>
          <h2>The email could not be sent</h2>
          <p>${link.emailFailure}</p>
          <p>The link below works all the same: give it to ${user.name} yourself.</p>
        </div>
      </div>`
    }
    ${warningStatus(
      'Copy the link now',
      `This is the only time it is shown. Give it to ${user.name} over a channel you trust: whoever opens it chooses the password of ${user.email}. It works once, until ${formatDate(link.expiresAt)}.`,
    )}
    ${secretShownOnce({
      owner: `${user.name} · ${user.email}`,
      id: 'member-link',
      label: invitation ? 'Invitation link' : 'Password reset link',
      value: link.url,
      details: html`<dt>Valid until</dt>
        <dd>${formatDate(link.expiresAt)}</dd>
        <dt>Works</dt>
        <dd>
          Once. ${invitation ? 'A later invitation' : 'A later reset link'} replaces this one.
        </dd>`,
      doneHref: memberPath(user),
    })}`,
  );
}

/** Where the link page's history entry points once the link has been shown. */
export function memberLinkGonePage(viewer: Viewer): SafeHtml {
  return appPage(
    viewer,
    { title: 'Link no longer shown', path: MEMBERS_PATH },
    html`${pageHeader({ breadcrumb: MEMBERS_BREADCRUMB, title: 'Link no longer shown' })}
      ${warningStatus(
        'The link is no longer shown',
        'An invitation or password reset link is shown only once. If it was not copied, reset the member’s password to issue a new one: it replaces the old link.',
      )}
      <p><a class="button" href="${MEMBERS_PATH}">Back to Members</a></p>`,
  );
}
