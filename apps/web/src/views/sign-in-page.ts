import { html } from '@vigil/http';
import { icons } from './icons';
import { standalonePage } from './layout';

export interface SignInPageModel {
  readonly csrfToken: string;
  readonly email?: string;
  readonly next?: string;
  readonly error?: string;
  readonly notice?: string;
}

export function signInPage(model: SignInPageModel) {
  const invalid = model.error !== undefined;
  return standalonePage(
    'Sign in',
    html`<div class="auth-card">
      <div class="brand">
        ${icons.logo}<span>Vigil<small>Security</small></span>
      </div>
      <h1>Sign in</h1>
      <p>Use the account your workspace admin created for you.</p>
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
      ${
        model.notice &&
        html`<div class="alert alert-success" role="status">
          ${icons.check}
          <div>${model.notice}</div>
        </div>`
      }
      <form method="post" action="/sign-in" novalidate>
        <input type="hidden" name="_csrf" value="${model.csrfToken}" />
        ${model.next && html`<input type="hidden" name="next" value="${model.next}" />`}
        <div class="field">
          <label for="email">Email</label>
          <input
            type="email"
            id="email"
            name="email"
            autocomplete="username"
            required
            value="${model.email ?? ''}"
            ${!invalid && html`autofocus`}
            ${invalid && html`aria-invalid="true" aria-describedby="sign-in-error"`}
          />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input
            type="password"
            id="password"
            name="password"
            autocomplete="current-password"
            required
            ${invalid && html`aria-invalid="true" aria-describedby="sign-in-error"`}
          />
        </div>
        <button class="button button-primary" type="submit">Sign in</button>
      </form>
      <p class="auth-foot">Sessions end after 12 hours without activity.</p>
    </div>`,
  );
}
