import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import parseUrl from 'parseurl';
import { bearerTokenOf, type ApiTokenAccess, type SpeculativeReads } from '@vigil/auth';
import type { Logger } from '@vigil/config';
import { ApiError, answerApiError, answerJson, type FrontRequestHandler } from '@vigil/http';
import type { NodeRequestHandler, QueryInstruments } from '@vigil/ops';
import { matchQueryRoute, type QueryRoute } from './query-route';

export interface ServeQueryRoutesOptions {
  readonly routes: readonly QueryRoute[];
  /** What every request goes through first, in order: request id, request log and metrics. */
  readonly observe: readonly NodeRequestHandler[];
  /** Then, in order: the content-type check and the body's parser. */
  readonly readBody: readonly NodeRequestHandler[];
  readonly access: ApiTokenAccess;
  readonly reads: SpeculativeReads;
  readonly queries: QueryInstruments;
  readonly logger: Logger;
}

/**
 * Answers the query endpoints straight from node:http, before the web framework sees the request
 * (its router and its request and response objects made each of them about 0.5 ms slower at p50
 * here): these are the endpoints scripts call in loops. They still go through the same middleware
 * as every other request (`observe`, `readBody`). Every other request is left to the framework.
 *
 * Each request runs what DESIGN.md §6 requires, in order (ApiTokenAccess); for a token that
 * passed recently the read starts alongside those checks, and nothing is answered before they
 * pass (SpeculativeReads).
 */
export function serveQueryRoutes(options: ServeQueryRoutesOptions): FrontRequestHandler {
  const { routes, observe, readBody, access, reads, queries, logger } = options;
  const before = [...observe, ...readBody];
  return (req, res) => {
    // Not even an error could be answered (the answer had begun): end the exchange.
    const abandon = (error: unknown) => {
      // The path only: a query string may carry what a log must not.
      logger.error(
        { err: error, path: req.url?.split('?')[0] },
        'could not answer a query request',
      );
      res.destroy();
    };
    const url = urlOf(req);
    // An unreadable target is the framework's to refuse (markUnreadableTargets).
    if (url === undefined) return false;
    const path = url.pathname ?? '';
    const match = matchQueryRoute(routes, req.method, path);
    if (match === undefined) return false;
    const { route } = match;
    // What request logs and metrics name the request by (routeOf), as a router would set it.
    (req as { route?: unknown }).route = { path: route.pattern };
    const answerError = (error: unknown) => {
      const answered = answerApiError(res, error, { logger, path });
      if (
        route.countsQueryErrors &&
        answered.status === 400 &&
        (answered.code === 'invalid_query' || answered.code === 'invalid_request')
      ) {
        queries.refused(answered.code);
      }
    };
    runInOrder(before, req, res, abandon, (failure) => {
      if (failure !== undefined) {
        answerError(failure);
        return;
      }
      // As Express's default ("simple") query parser reads it.
      const query = parseQueryString(typeof url.query === 'string' ? url.query : '');
      const body = (req as { body?: unknown }).body;
      // Promise.resolve().then: whatever the checks or the read throw becomes an answer.
      Promise.resolve()
        .then(() =>
          reads.run({
            token: bearerTokenOf(req.headers.authorization),
            authorize: async () => {
              await access.authorize(
                { headers: req.headers, rawHeaders: req.rawHeaders, query, body },
                {
                  setHeader: (name, value) => res.setHeader(name, value),
                  authenticated: (principal) => {
                    (req as { user?: unknown }).user = principal;
                  },
                },
              );
            },
            // Async, so that a refusal of the input (a bad id) waits for the checks like any answer.
            read: async () => route.handle({ params: decodedParams(match.rawParams), query, body }),
          }),
        )
        .then((result) => {
          if (req.method === 'HEAD') {
            res.statusCode = route.status;
            res.end();
          } else {
            answerJson(res, route.status, result);
          }
        })
        .catch(answerError)
        .catch(abandon);
    });
    return true;
  };
}

/** The request's URL, or undefined for a target no URL parser reads (`http://[::1:80/`). */
function urlOf(req: IncomingMessage): ReturnType<typeof parseUrl> {
  try {
    return parseUrl(req);
  } catch {
    return undefined;
  }
}

/**
 * Runs connect-style handlers one after the other; `done` runs once, with the first error if
 * any. Nothing thrown escapes (on the server's request event, or in a body parser's callback, it
 * would stop the process): what `done` throws goes to `abandon`.
 */
function runInOrder(
  handlers: readonly NodeRequestHandler[],
  req: IncomingMessage,
  res: ServerResponse,
  abandon: (error: unknown) => void,
  done: (error?: unknown) => void,
): void {
  let index = 0;
  let finished = false;
  const finish = (error?: unknown) => {
    if (finished) return;
    finished = true;
    try {
      done(error);
    } catch (thrown) {
      abandon(thrown);
    }
  };
  const next = (error?: unknown): void => {
    if (error !== undefined || index === handlers.length) {
      finish(error);
      return;
    }
    const handler = handlers[index++];
    try {
      handler(req, res, next);
    } catch (thrown) {
      finish(thrown);
    }
  };
  next();
}

function decodedParams(raw: Readonly<Record<string, string>>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      throw ApiError.badRequest(`The path parameter ${name} is not valid percent-encoding`, {
        field: name,
      });
    }
  }
  return params;
}
