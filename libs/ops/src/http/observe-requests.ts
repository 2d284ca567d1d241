import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@vigil/config';
import type { HttpInstruments } from '../metrics/http-instruments';

/** Who made a request, by id only: a token's id (never its value) or a user's id. */
export interface RequestPrincipal {
  tokenId?: string;
  userId?: string;
}

export interface ObserveRequestsOptions {
  logger: Logger;
  http: HttpInstruments;
  /** The request id the app answers in `x-request-id` (set by an earlier middleware). */
  requestIdOf: (req: IncomingMessage, res: ServerResponse) => string;
  principalOf?: (req: Request) => RequestPrincipal;
  /** The path as it may be logged, where a path segment can be a secret (a one-time link). */
  loggedPathOf?: (path: string) => string;
}

/**
 * Connect-style middleware on plain node:http types: Express installs it, and so can an app that
 * answers some requests before its framework.
 */
export type NodeRequestHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** Requests that matched no route share one label value, so odd paths add no series. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The matched route pattern (`/api-key/v1/detections/:detectionId`), never the path itself. */
export function routeOf(req: IncomingMessage): string {
  const route = (req as Partial<Request>).route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? route.path : UNMATCHED_ROUTE;
}

/**
 * One structured line per request (method, path, route, status, duration, request id, token or
 * user id; no header, no query string, no body) and the request metrics. Install after the
 * request-id middleware. Lines are `info` below 500 and `error` from 500 on.
 */
export function observeRequests(options: ObserveRequestsOptions): NodeRequestHandler[] {
  const { logger, http, requestIdOf } = options;
  const principalOf = options.principalOf ?? (() => ({}));
  const loggedPathOf = options.loggedPathOf ?? ((path: string) => path);
  const finished = (req: IncomingMessage, res: ServerResponse, fields: object) => ({
    ...fields,
    route: routeOf(req),
    ...principalOf(req as Request),
  });
  const log = pinoHttp({
    logger,
    genReqId: requestIdOf,
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown }) => ({
        id: req.id,
        method: req.method,
        path: loggedPathOf(pathOf(req)),
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    customAttributeKeys: { responseTime: 'durationMs' },
    customLogLevel: (_req, res, error) =>
      error !== undefined || res.statusCode >= 500 ? 'error' : 'info',
    customSuccessObject: finished,
    customErrorObject: (req, res, _error, fields: object) => finished(req, res, fields),
  });
  const measure: NodeRequestHandler = (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      http.answered(
        routeOf(req),
        req.method ?? '',
        res.statusCode,
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
  return [log, measure];
}

/** The path without its query string: a query string may carry what a log must not. */
function pathOf(req: IncomingMessage): string {
  const url = (req as Partial<Request>).originalUrl ?? req.url ?? '';
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}
