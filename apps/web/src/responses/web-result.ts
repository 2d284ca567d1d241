import type { CookieOptions } from 'express';
import { type SafeHtml } from '@vigil/http';

/** A cookie a response sets, or clears when `value` is undefined. */
export interface CookieChange {
  readonly name: string;
  readonly value?: string;
  readonly options: CookieOptions;
}

/**
 * What a web handler returns instead of writing to the response: a page, a redirect or an
 * asset, with the headers and cookies that go with it. WebExpressAdapter sends it.
 */
export abstract class WebResult {
  readonly headers: Record<string, string> = {};
  readonly cookies: CookieChange[] = [];

  withHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  withCookie(name: string, value: string, options: CookieOptions): this {
    this.cookies.push({ name, value, options });
    return this;
  }

  withoutCookie(name: string, options: CookieOptions): this {
    this.cookies.push({ name, options });
    return this;
  }
}

/** An HTML page with its status. */
export class PageResult extends WebResult {
  constructor(
    readonly body: SafeHtml,
    readonly status: number,
  ) {
    super();
  }
}

/** 303 See Other: after a form, and to send the browser on. */
export class RedirectResult extends WebResult {
  constructor(readonly location: string) {
    super();
  }
}

/** A static file of the application, served under its content-hashed path. */
export class AssetResult extends WebResult {
  constructor(
    readonly contentType: string,
    readonly body: string,
  ) {
    super();
  }
}

export function page(body: SafeHtml, status = 200): PageResult {
  return new PageResult(body, status);
}

export function redirect(location: string): RedirectResult {
  return new RedirectResult(location);
}
