/** How people may sign in here, as the sign-in page offers it. */
export interface SignInOptions {
  /** The identity provider's name (OIDC_DISPLAY_NAME) when single sign-on is set up. */
  readonly singleSignOn?: string;
  /** false when PASSWORD_SIGN_IN=off. */
  readonly passwordSignIn: boolean;
}

export const SIGN_IN_OPTIONS = Symbol('SIGN_IN_OPTIONS');
