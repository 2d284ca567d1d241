import { html } from '@vigil/http';
import { csrfField } from './csrf-field';
import { textField } from './form-field';
import { icons } from './icons';
import { standalonePage } from './layout';
import { notice } from './notice';

export interface SignInPageModel {
  readonly csrfToken: string;
  readonly email?: string;
  readonly next?: string;
  readonly error?: string;
  readonly notice?: string;
  /** The identity provider's name, when single sign-on is set up. */
  readonly singleSignOn?: string;
  /** false: only single sign-on (PASSWORD_SIGN_IN=off). */
  readonly passwordSignIn?: boolean;
}

export function signInPage(model: SignInPageModel) {
  const refused = model.error !== undefined;
  const passwordSignIn = model.passwordSignIn ?? true;
  // A refused sign-in marks both fields, pointing to its one message.
  const credential = {
    required: true,
    invalid: refused,
    describedBy: refused ? 'sign-in-error' : undefined,
  };
  const email = textField({
    ...credential,
    id: 'email',
    name: 'email',
    label: 'Email',
    type: 'email',
    autocomplete: 'username',
    value: model.email ?? '',
    autofocus: !refused && model.singleSignOn === undefined,
  });
  const password = textField({
    ...credential,
    id: 'password',
    name: 'password',
    label: 'Password',
    type: 'password',
    autocomplete: 'current-password',
  });
  return standalonePage(
    'Sign in',
    html`<div class="auth-card">
      <div class="brand">
        ${icons.logo}<span>Vigil<small>Security</small></span>
      </div>
      <h1>Sign in</h1>
      <p>
        ${passwordSignIn ? 'Use the account your workspace admin created for you.' : 'This workspace signs in through its identity provider.'}
      </p>
      ${
        model.error &&
        html`<div
          class="alert alert-error"
          role="alert"
          id="sign-in-error"
          tabindex="-1"
          data-focus-on-load
        >
          ${icons.alert}
          <div>${model.error}</div>
        </div>`
      }
      ${notice(model.notice)}
      ${
        model.singleSignOn !== undefined &&
        html`<form method="post" action="/sign-in/oidc" class="sso-form">
          ${csrfField(model.csrfToken)}
          ${model.next && html`<input type="hidden" name="next" value="${model.next}" />`}
          <button class="button ${passwordSignIn ? '' : 'button-primary'}" type="submit">
            Sign in with ${model.singleSignOn}
          </button>
        </form>`
      }
      ${
        model.singleSignOn !== undefined &&
        passwordSignIn &&
        html`<p class="auth-divider"><span>or with your email and password</span></p>`
      }
      ${
        passwordSignIn &&
        html`<form method="post" action="/sign-in" novalidate>
          ${csrfField(model.csrfToken)}
          ${model.next && html`<input type="hidden" name="next" value="${model.next}" />`} ${email}
          ${password}
          <button class="button button-primary" type="submit">Sign in</button>
        </form>`
      }
      <p class="auth-foot">Sessions end after 12 hours without activity.</p>
    </div>`,
  );
}
