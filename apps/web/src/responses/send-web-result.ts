import type { Response } from 'express';
import { AssetResult, PageResult, RedirectResult, type WebResult } from './web-result';

/** Writes a WebResult to the response: its headers and cookies, then the page, redirect or asset. */
export function sendWebResult(res: Response, result: WebResult): void {
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  for (const cookie of result.cookies) {
    if (cookie.value === undefined) res.clearCookie(cookie.name, cookie.options);
    else res.cookie(cookie.name, cookie.value, cookie.options);
  }
  if (result instanceof RedirectResult) {
    res.redirect(303, result.location);
  } else if (result instanceof PageResult) {
    res.status(result.status).type('html').send(result.body.value);
  } else if (result instanceof AssetResult) {
    res.type(result.contentType).send(result.body);
  }
}
