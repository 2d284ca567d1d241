import { ConfigError } from './config-error';
import { loadConfig } from './load-config';

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('TRUST_PROXY', () => {
  it('trusts no proxy unless told', () => {
    expect(loadConfig(['web', 'api', 'ingest'], {})).toMatchObject({
      web: { TRUST_PROXY: false },
      api: { TRUST_PROXY: false },
      ingest: { TRUST_PROXY: false },
    });
    expect(loadConfig(['web'], { TRUST_PROXY: 'false' }).web.TRUST_PROXY).toBe(false);
    expect(loadConfig(['web'], { TRUST_PROXY: '0' }).web.TRUST_PROXY).toBe(false);
  });

  it('takes a hop count, or addresses, CIDR ranges and range names', () => {
    expect(loadConfig(['web'], { TRUST_PROXY: '1' }).web.TRUST_PROXY).toBe(1);
    expect(
      loadConfig(['api'], { TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,loopback,fd00::/8' }).api
        .TRUST_PROXY,
    ).toEqual(['10.0.0.0/8', '192.0.2.7', 'loopback', 'fd00::/8']);
  });

  it('refuses true, a bad range and a word, naming the variable', () => {
    expect(problemsOf(() => loadConfig(['web'], { TRUST_PROXY: 'true' }))).toEqual([
      expect.stringMatching(/^TRUST_PROXY="true" is invalid: true would trust any client/),
    ]);
    expect(problemsOf(() => loadConfig(['ingest'], { TRUST_PROXY: '10.0.0.0/33,proxy' }))).toEqual([
      'TRUST_PROXY="10.0.0.0/33,proxy" is invalid: not an address, CIDR range or loopback/linklocal/uniquelocal: 10.0.0.0/33, proxy',
    ]);
  });
});

describe('single sign-on settings', () => {
  const client = {
    OIDC_ISSUER_URL: 'https://id.example.com',
    OIDC_CLIENT_ID: 'vigil',
    OIDC_CLIENT_SECRET: 'a client secret',
  };

  it('is off unless the issuer is set, with password sign-in on', () => {
    const config = loadConfig(['web', 'oidc'], {});
    expect(config.oidc.OIDC_ISSUER_URL).toBeUndefined();
    expect(config.oidc.OIDC_JIT_ROLE).toBe('none');
    expect(config.web.PASSWORD_SIGN_IN).toBe('on');
  });

  it('reads the client, the creation role and the allowed domains', () => {
    const config = loadConfig(['oidc'], {
      ...client,
      OIDC_JIT_ROLE: 'member',
      OIDC_ALLOWED_DOMAINS: 'Example.com, @corp.example.org',
    });
    expect(config.oidc).toMatchObject({
      ...client,
      OIDC_JIT_ROLE: 'member',
      OIDC_ALLOWED_DOMAINS: ['example.com', 'corp.example.org'],
      OIDC_DISPLAY_NAME: 'single sign-on',
    });
  });

  it('refuses a partial client without echoing the secret', () => {
    const problems = problemsOf(() =>
      loadConfig(['oidc'], { OIDC_CLIENT_SECRET: client.OIDC_CLIENT_SECRET }),
    );
    expect(problems).toEqual([
      'OIDC_ISSUER_URL and OIDC_CLIENT_ID must be set with OIDC_CLIENT_SECRET',
    ]);
    expect(problems.join()).not.toContain(client.OIDC_CLIENT_SECRET);
  });

  it('refuses a plain-http issuer unless it is on this host', () => {
    expect(
      problemsOf(() =>
        loadConfig(['oidc'], { ...client, OIDC_ISSUER_URL: 'http://id.example.com' }),
      ),
    ).toEqual(['OIDC_ISSUER_URL must be https:// (plain http only for a loopback address)']);
    expect(
      problemsOf(() =>
        loadConfig(['oidc'], { ...client, OIDC_ISSUER_URL: 'http://127.0.0.1:4000' }),
      ),
    ).toEqual([]);
  });

  it('refuses to create users at sign-on without allowed domains', () => {
    expect(problemsOf(() => loadConfig(['oidc'], { ...client, OIDC_JIT_ROLE: 'admin' }))).toEqual([
      expect.stringMatching(/^OIDC_ALLOWED_DOMAINS is required when OIDC_JIT_ROLE creates users/),
    ]);
  });

  it('refuses to turn password sign-in off without single sign-on, naming the way back', () => {
    expect(problemsOf(() => loadConfig(['web', 'oidc'], { PASSWORD_SIGN_IN: 'off' }))).toEqual([
      expect.stringMatching(/^PASSWORD_SIGN_IN=off needs single sign-on.*CLI/),
    ]);
    expect(
      loadConfig(['web', 'oidc'], { ...client, PASSWORD_SIGN_IN: 'off' }).web.PASSWORD_SIGN_IN,
    ).toBe('off');
  });
});
