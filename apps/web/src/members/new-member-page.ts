import { USER_NAME_MAX_LENGTH, USER_ROLES } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { csrfField } from '../views/csrf-field';
import { errorSummary, type ErrorSummaryItem } from '../views/error-summary';
import { textField } from '../views/form-field';
import { appPage, pageHeader } from '../views/layout';
import { radioGroup } from '../views/radio-group';
import { type MemberFormErrors, type MemberFormValues } from './member-form';
import { MEMBERS_BREADCRUMB, MEMBERS_PATH } from './member-paths';

export const ROLE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  admin: 'Manages members, API keys, notification settings and integrations.',
  member: 'Sees detections, investigations and settings; changes nothing.',
};

export const ROLE_OPTIONS = USER_ROLES.map((role) => ({
  key: role.key,
  label: role.label,
  description: ROLE_DESCRIPTIONS[role.key],
}));

function summary(errors: MemberFormErrors | undefined): SafeHtml {
  if (errors === undefined) return html``;
  const items: ErrorSummaryItem[] = [];
  if (errors.name) items.push({ href: '#name', message: errors.name });
  if (errors.email) items.push({ href: '#email', message: errors.email });
  if (errors.role) items.push({ href: '#role-admin', message: errors.role });
  if (errors.access) items.push({ href: '#access-invite', message: errors.access });
  if (errors.password) items.push({ href: '#password', message: errors.password });
  for (const other of errors.other) items.push({ message: other });
  return errorSummary('The member was not added', items, 'Fix the following and try again:');
}

/**
 * Add a member: name, email and role, then either an invitation link with which they choose
 * their password (emailed when an SMTP server is configured) or a password set now.
 */
export function newMemberPage(
  viewer: Viewer,
  values: MemberFormValues,
  options: { readonly emailsLinks: boolean; readonly errors?: MemberFormErrors },
): SafeHtml {
  const { errors } = options;
  return appPage(
    viewer,
    { title: errors ? 'Error: Add member' : 'Add member', path: MEMBERS_PATH },
    html`${pageHeader({
        breadcrumb: MEMBERS_BREADCRUMB,
        title: 'Add member',
        description: 'They sign in with their email and a password of at least 12 characters.',
      })}
      ${summary(errors)}
      <form method="post" action="${MEMBERS_PATH}" novalidate>
        ${csrfField(viewer.csrfToken)}
        <section class="card" aria-labelledby="member-heading">
          <div class="card-header"><h2 id="member-heading">Member</h2></div>
          <div class="card-body">
            ${textField({
              id: 'name',
              name: 'name',
              label: 'Name',
              error: errors?.name,
              value: values.name,
              maxlength: USER_NAME_MAX_LENGTH,
              required: true,
              autofocus: errors === undefined,
            })}
            ${textField({
              id: 'email',
              name: 'email',
              label: 'Email',
              hint: 'They sign in with it. It cannot be changed later.',
              type: 'email',
              error: errors?.email,
              value: values.email,
              required: true,
              spellcheck: false,
            })}
            ${radioGroup({
              name: 'role',
              legend: 'Role',
              value: values.role,
              error: errors?.role,
              options: ROLE_OPTIONS,
            })}
          </div>
        </section>
        <section class="card" aria-labelledby="access-heading">
          <div class="card-header"><h2 id="access-heading">Sign-in</h2></div>
          <div class="card-body">
            ${radioGroup({
              name: 'access',
              legend: 'How they get their password',
              value: values.access,
              error: errors?.access,
              options: [
                {
                  key: 'invite',
                  label: 'Send an invitation link',
                  description: options.emailsLinks
                    ? 'Emailed to them. They choose their password with it; it works once, for 7 days.'
                    : 'Shown to you once, to give them. They choose their password with it; it works once, for 7 days.',
                },
                {
                  key: 'password',
                  label: 'Set a password now',
                  description: 'Give it to them over a channel you trust.',
                },
              ],
            })}
            ${textField({
              id: 'password',
              name: 'password',
              label: 'Password',
              hint: 'Only when setting a password now: at least 12 characters.',
              type: 'password',
              autocomplete: 'new-password',
              error: errors?.password,
            })}
          </div>
          <div class="card-footer">
            <button class="button button-primary" type="submit">Add member</button>
            <a class="button" href="${MEMBERS_PATH}">Cancel</a>
          </div>
        </section>
      </form>`,
  );
}
