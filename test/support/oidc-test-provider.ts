import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A person the test OpenID Provider knows, signed in by typing `id` at its login page. */
export interface TestAccount {
  readonly id: string;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly name?: string;
}

export interface TestOidcProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Adds (or replaces) a person the provider can sign in. */
  addAccount(account: TestAccount): void;
  stop(): Promise<void>;
}

/**
 * A real OpenID Provider (the `oidc-provider` package) on a free loopback port: one confidential
 * client registered for `redirectUri` (PKCE required), its development login and consent pages,
 * and the accounts the test adds, with `email` and `email_verified` claims.
 */
export async function startTestOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestAccount>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'vigil-web';
  const clientSecret = `test-client-secret-${Math.random().toString(36).slice(2)}`;
  // ESM only: Node and Jest's transform load it through import().
  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test cookie signing key'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      if (account === undefined) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: account.emailVerified,
          name: account.name ?? id,
        }),
      };
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    addAccount: (account) => void accounts.set(account.id, account),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
