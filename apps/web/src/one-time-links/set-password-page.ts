import { PASSWORD_MIN_LENGTH, type OneTimeLinkDetails } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { csrfField } from '../views/csrf-field';
import { errorSummary, type ErrorSummaryItem } from '../views/error-summary';
import { textField } from '../views/form-field';
import { formatDate } from '../views/format-date';
import { icons } from '../views/icons';
import { standalonePage } from '../views/layout';

export interface SetPasswordErrors {
  readonly password?: string;
  readonly confirmation?: string;
}

/** The page behind an invitation or password reset link: choose a password, twice. */
export function setPasswordPage(model: {
  readonly csrfToken: string;
  /** The link's own path: the form posts back to it. */
  readonly action: string;
  readonly link: OneTimeLinkDetails;
  readonly errors?: SetPasswordErrors;
}): SafeHtml {
  const { link, errors } = model;
  const invitation = link.purpose === 'invitation';
  const title = invitation ? 'Choose your password' : 'Choose a new password';
  const items: ErrorSummaryItem[] = [];
  if (errors?.password) items.push({ href: '#password', message: errors.password });
  if (errors?.confirmation) items.push({ href: '#confirmation', message: errors.confirmation });
  return standalonePage(
    errors ? `Error: ${title}` : title,
    html`<div class="auth-card">
      <div class="brand">
        ${icons.logo}<span>Vigil<small>Security</small></span>
      </div>
      <h1>${title}</h1>
      <p>
        ${invitation ? `Welcome, ${link.name}. ` : ''}Your account is
        <strong>${link.email}</strong>. This link works once, until ${formatDate(link.expiresAt)}.
      </p>
      ${errorSummary('The password was not set', items, 'Fix the following and try again:')}
      <form method="post" action="${model.action}" novalidate>
        ${csrfField(model.csrfToken)}
        <input
          type="email"
          name="username"
          value="${link.email}"
          autocomplete="username"
          readonly
          hidden
        />
        ${textField({
          id: 'password',
          name: 'password',
          label: 'New password',
          hint: `At least ${PASSWORD_MIN_LENGTH} characters. A few words you can remember are fine.`,
          type: 'password',
          autocomplete: 'new-password',
          error: errors?.password,
          required: true,
          autofocus: errors === undefined,
        })}
        ${textField({
          id: 'confirmation',
          name: 'confirmation',
          label: 'Confirm the password',
          type: 'password',
          autocomplete: 'new-password',
          error: errors?.confirmation,
          required: true,
        })}
        <button class="button button-primary" type="submit">Set password</button>
      </form>
      <p class="auth-foot">Setting it signs you out everywhere; then sign in with it.</p>
    </div>`,
  );
}

/** A link that cannot be used: why, and what to do. */
export function linkRefusedPage(message: string): SafeHtml {
  return standalonePage(
    'This link cannot be used',
    html`<div class="auth-card">
      <div class="brand">
        ${icons.logo}<span>Vigil<small>Security</small></span>
      </div>
      <h1>This link cannot be used</h1>
      <div
        class="alert alert-error"
        role="alert"
        id="link-refusal"
        tabindex="-1"
        data-focus-on-load
      >
        ${icons.alert}
        <div>${message}</div>
      </div>
      <p>Nothing was changed.</p>
      <p><a class="button" href="/sign-in">Go to sign-in</a></p>
    </div>`,
  );
}

/** After the password was set: nobody is signed in; sign in with it. */
export function passwordSetPage(): SafeHtml {
  return standalonePage(
    'Password set',
    html`<div class="auth-card">
      <div class="brand">
        ${icons.logo}<span>Vigil<small>Security</small></span>
      </div>
      <h1>Your password is set</h1>
      <div class="alert alert-success" role="status">
        ${icons.check}
        <div>Sign in with your email and the password you just chose.</div>
      </div>
      <p><a class="button button-primary" href="/sign-in" autofocus>Sign in</a></p>
    </div>`,
  );
}
