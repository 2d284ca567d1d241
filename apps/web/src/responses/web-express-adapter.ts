import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { sendWebResult } from './send-web-result';
import { WebResult } from './web-result';

/**
 * Nest's Express adapter, sending what web handlers return (a WebResult) with its own status,
 * headers and cookies; other values are replied as Nest does.
 */
export class WebExpressAdapter extends ExpressAdapter {
  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    if (body instanceof WebResult) {
      sendWebResult(response as Response, body);
      return;
    }
    return super.reply(response, body, statusCode);
  }
}
