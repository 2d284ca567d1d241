import type { NextFunction, Request, Response } from 'express';
import { bearerTokenOf, type ApiTokenAccess, type SpeculativeReads } from '@vigil/auth';
import type { Logger } from '@vigil/config';
import { ApiError, answerApiError, answerJson } from '@vigil/http';
import type { QueryInstruments } from '@vigil/ops';
import { matchQueryRoute, type QueryRoute } from './query-route';

export interface ServeQueryRoutesOptions {
  readonly routes: readonly QueryRoute[];
  readonly access: ApiTokenAccess;
  readonly reads: SpeculativeReads;
  readonly queries: QueryInstruments;
  readonly logger: Logger;
}

/**
 * Answers the query endpoints straight from the middleware chain (after the request id, request
 * log, content-type check and JSON body), without a framework's per-request pipeline: these are
 * the endpoints scripts call in loops. Every other request goes on to the Nest application.
 *
 * Each request runs what DESIGN.md §6 requires, in order (ApiTokenAccess); for a token that
 * passed recently the read starts alongside those checks, and nothing is answered before they
 * pass (SpeculativeReads).
 */
export function serveQueryRoutes(options: ServeQueryRoutesOptions) {
  const { routes, access, reads, queries, logger } = options;
  return (req: Request, res: Response, next: NextFunction): void => {
    const match = matchQueryRoute(routes, req.method, req.path);
    if (match === undefined) {
      next();
      return;
    }
    const { route } = match;
    // What request logs and metrics name the request by (routeOf), as a router would set it.
    (req as { route?: unknown }).route = { path: route.pattern };
    const query = req.query as Record<string, unknown>;
    const body: unknown = req.body;
    reads
      .run({
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
      })
      .then(
        (result) => {
          if (req.method === 'HEAD') {
            res.statusCode = route.status;
            res.end();
          } else {
            answerJson(res, route.status, result);
          }
        },
        (error: unknown) => {
          const answered = answerApiError(res, error, { logger, path: req.path });
          if (
            route.countsQueryErrors &&
            answered.status === 400 &&
            (answered.code === 'invalid_query' || answered.code === 'invalid_request')
          ) {
            queries.refused(answered.code);
          }
        },
      );
  };
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
