/**
 * A signed-in web session driven over plain HTTP (no browser): its cookie header and its CSRF
 * token, to send forms exactly as a browser would, or as an attacker would not.
 */
export interface WebSession {
  /** The Cookie header value (session cookie, and the pre-session CSRF cookie). */
  readonly cookie: string;
  /** The session's CSRF token, as the forms carry it. */
  readonly csrf: string;
  /** The session cookie's value alone. */
  readonly sessionId: string;
}

export const SESSION_COOKIE = 'vigil_session';
const PRE_SESSION_COOKIE = 'vigil_csrf';

/** name=value pairs of every Set-Cookie of a response. */
export function cookiesSetBy(response: Response): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    cookies.set(pair.slice(0, at).trim(), decodeURIComponent(pair.slice(at + 1)));
  }
  return cookies;
}

export function csrfFieldOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no _csrf field on the page');
  return match[1];
}

export function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** Posts a form (urlencoded) with the given cookie header; never follows redirects. */
export function postForm(
  url: string,
  cookie: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<Response> {
  return fetch(url, {
    method,
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * Signs in through the sign-in form. `planted` cookies are sent from the start, as a cookie an
 * attacker set before sign-in would be; `plantedCsrf` is the form token that goes with them.
 */
export async function signInOverHttp(
  baseUrl: string,
  email: string,
  password: string,
  planted: Map<string, string> = new Map(),
  plantedCsrf?: string,
): Promise<WebSession> {
  const form = await fetch(`${baseUrl}/sign-in`, {
    redirect: 'manual',
    headers: { cookie: cookieHeader(planted) },
  });
  const cookies = new Map([...planted, ...cookiesSetBy(form)]);
  // A planted live session makes the sign-in page redirect; its owner knows its form token.
  const preSessionCsrf = plantedCsrf ?? csrfFieldOf(await form.text());
  const signedIn = await postForm(`${baseUrl}/sign-in`, cookieHeader(cookies), {
    _csrf: preSessionCsrf,
    email,
    password,
  });
  if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
  for (const [name, value] of cookiesSetBy(signedIn)) cookies.set(name, value);
  const sessionId = cookies.get(SESSION_COOKIE);
  if (!sessionId) throw new Error('sign-in set no session cookie');
  const page = await fetch(`${baseUrl}/settings/access/account`, {
    redirect: 'manual',
    headers: { cookie: cookieHeader(cookies) },
  });
  const csrf = csrfFieldOf(await page.text());
  if (csrf === cookies.get(PRE_SESSION_COOKIE)) throw new Error('session CSRF token not issued');
  return { cookie: cookieHeader(cookies), csrf, sessionId };
}
