import { html } from '@vigil/http';
import { icons } from './icons';
import { standalonePage } from './layout';

/** Why a single sign-on was refused, and the way back to the sign-in page. */
export function signInRefusedPage(model: { readonly message: string }) {
  return standalonePage(
    'Sign-in refused',
    html`<div class="auth-card">
      <div class="brand">
        ${icons.logo}<span>Vigil<small>Security</small></span>
      </div>
      <h1>Sign-in refused</h1>
      <div class="alert alert-error" role="alert" tabindex="-1" data-focus-on-load>
        ${icons.alert}
        <div>${model.message}</div>
      </div>
      <a class="button button-primary" href="/sign-in">Back to sign in</a>
      <p class="auth-foot">
        Nothing was changed. Your workspace admin can see this attempt in the audit log.
      </p>
    </div>`,
  );
}
