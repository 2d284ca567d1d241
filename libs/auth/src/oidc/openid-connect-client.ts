import * as oidc from 'openid-client';
import { OidcError } from './oidc-error';

export interface OpenIdConnectSettings {
  readonly issuerUrl: string;
  readonly clientId: string;
  /** Sent to the provider's token endpoint only; never logged or shown. */
  readonly clientSecret: string;
  /** Where the provider sends the browser back; registered with the provider. */
  readonly redirectUrl: string;
  readonly timeoutSeconds?: number;
}

/** What the browser carries to the provider, and what must be kept to check its return. */
export interface AuthorizationStart {
  readonly authorizationUrl: URL;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** The checks a callback must pass, as kept from its start. */
export interface AuthorizationChecks {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** The signed-in person as the provider vouches for them (ID token, then UserInfo). */
export interface OidcIdentity {
  readonly issuer: string;
  readonly subject: string;
  readonly email: string | null;
  /** True only when the provider says so (`email_verified: true`). */
  readonly emailVerified: boolean;
  readonly name: string | null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * OpenID Connect relying party on openid-client: authorization code flow with PKCE (S256),
 * state and nonce; the provider is discovered from the issuer URL at the first use (and again
 * after a failed discovery), so the web application starts whether or not the provider is up.
 * The client authenticates with client_secret_basic. Plain HTTP is allowed only for a loopback
 * issuer (tests, a provider on the same host).
 */
export class OpenIdConnectClient {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(private readonly settings: OpenIdConnectSettings) {}

  get issuerUrl(): string {
    return this.settings.issuerUrl;
  }

  /** A new authorization request: the provider URL to send the browser to, and its checks. */
  async start(): Promise<AuthorizationStart> {
    const config = await this.discovered();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUrl,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { authorizationUrl, state, nonce, codeVerifier };
  }

  /**
   * Completes a callback (its query string) that passed `checks`: exchanges the code and
   * validates the ID token (issuer, audience, signature, expiry, nonce), then reads the email
   * from the ID token or, when absent there, from UserInfo.
   */
  async finish(callbackQuery: string, checks: AuthorizationChecks): Promise<OidcIdentity> {
    const config = await this.discovered();
    const callback = new URL(this.settings.redirectUrl);
    callback.search = callbackQuery;
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw refusalOf(error);
    }
    const claims = tokens.claims();
    if (claims === undefined) {
      throw new OidcError('exchange_failed', 'The identity provider returned no ID token');
    }
    let profile: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string') {
      try {
        profile = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      } catch (error) {
        throw refusalOf(error);
      }
    }
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: typeof profile.email === 'string' ? profile.email : null,
      emailVerified: profile.email_verified === true,
      name: typeof profile.name === 'string' ? profile.name : null,
    };
  }

  private discovered(): Promise<oidc.Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw error;
    });
    return this.configuration;
  }

  private async discover(): Promise<oidc.Configuration> {
    const issuer = new URL(this.settings.issuerUrl);
    const insecure = issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
    try {
      return await oidc.discovery(
        issuer,
        this.settings.clientId,
        undefined,
        oidc.ClientSecretBasic(this.settings.clientSecret),
        {
          timeout: this.settings.timeoutSeconds ?? 10,
          execute: insecure ? [oidc.allowInsecureRequests] : [],
        },
      );
    } catch (error) {
      throw new OidcError(
        'unavailable',
        `The identity provider at ${issuer.origin} could not be reached or described itself wrongly: ${describe(error)}`,
      );
    }
  }
}

/** The OidcError that says why the provider's answer was refused, without any secret. */
function refusalOf(error: unknown): OidcError {
  if (error instanceof OidcError) return error;
  if (error instanceof oidc.AuthorizationResponseError) {
    return new OidcError(
      'idp_refused',
      error.error_description ?? `The identity provider refused the sign-in (${error.error})`,
      error.error,
    );
  }
  if (error instanceof oidc.ResponseBodyError) {
    return new OidcError(
      'exchange_failed',
      `The identity provider refused the code: ${error.error_description ?? error.error}`,
      error.error,
    );
  }
  if (error instanceof TypeError || isNetworkError(error)) {
    return new OidcError(
      'unavailable',
      `The identity provider could not be reached: ${describe(error)}`,
    );
  }
  return new OidcError(
    'exchange_failed',
    `The sign-in response failed its checks: ${describe(error)}`,
  );
}

function isNetworkError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
