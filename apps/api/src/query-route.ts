/** What a query endpoint is given: its path parameters (decoded), query string and body. */
export interface QueryRouteInput {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
}

/** One read-only endpoint of the query API, answered with `status` and the JSON of `handle`. */
export interface QueryRoute {
  readonly method: 'GET' | 'POST';
  /** As it is reported in request logs and metrics, e.g. `/api-key/v1/detections/:detectionId`. */
  readonly pattern: string;
  readonly status: number;
  /** Whether a refused query counts in vigil_query_compile_errors_total. */
  readonly countsQueryErrors: boolean;
  readonly handle: (input: QueryRouteInput) => Promise<unknown>;
}

export interface QueryRouteMatch {
  readonly route: QueryRoute;
  /** Still percent-encoded: decoding can fail, and that is the request's fault (a 400). */
  readonly rawParams: Readonly<Record<string, string>>;
}

/**
 * The route a request is for, matched as Express matches by default: fixed segments without
 * regard to case, one trailing slash allowed, a parameter a whole non-empty segment. HEAD is
 * answered as GET.
 */
export function matchQueryRoute(
  routes: readonly QueryRoute[],
  method: string | undefined,
  path: string,
): QueryRouteMatch | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  const segments = (path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  for (const route of routes) {
    if (route.method !== wanted) continue;
    const rawParams = paramsOf(route.pattern.split('/'), segments);
    if (rawParams !== undefined) return { route, rawParams };
  }
  return undefined;
}

function paramsOf(
  pattern: readonly string[],
  segments: readonly string[],
): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i].startsWith(':')) {
      if (segments[i].length === 0) return undefined;
      params[pattern[i].slice(1)] = segments[i];
    } else if (pattern[i].toLowerCase() !== segments[i].toLowerCase()) {
      return undefined;
    }
  }
  return params;
}
