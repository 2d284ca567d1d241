import { CookiePolicy } from './cookie-policy';

describe('CookiePolicy', () => {
  it('uses HttpOnly, SameSite=Lax session cookies for the whole site', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(new CookiePolicy(false).session(at)).toEqual({
      httpOnly: true,
      sameSite: 'lax',
      secure: false,
      path: '/',
      expires: at,
    });
  });

  it('makes cookies Secure with the __Host- prefix behind HTTPS', () => {
    const policy = new CookiePolicy(true);
    expect(policy.sessionCookie).toBe('__Host-vigil_session');
    expect(policy.preSessionCsrfCookie).toBe('__Host-vigil_csrf');
    expect(policy.session(new Date())).toMatchObject({ secure: true, path: '/' });
    expect(policy.session(new Date())).not.toHaveProperty('domain');
    expect(policy.preSession()).toMatchObject({ secure: true, httpOnly: true, sameSite: 'strict' });
  });
});
