import { matchQueryRoute, type QueryRoute } from './query-route';

const route = (method: QueryRoute['method'], pattern: string): QueryRoute => ({
  method,
  pattern,
  status: 200,
  countsQueryErrors: false,
  handle: async () => ({}),
});

const routes = [
  route('POST', '/api-key/v1/events'),
  route('GET', '/api-key/v1/detections/:detectionId'),
  route('POST', '/api-key/v1/detections/:detectionId/events'),
];

describe('matchQueryRoute', () => {
  it('matches the method and every segment, a parameter being a whole segment', () => {
    expect(matchQueryRoute(routes, 'POST', '/api-key/v1/events')?.route).toBe(routes[0]);
    expect(matchQueryRoute(routes, 'GET', '/api-key/v1/detections/d-1')).toEqual({
      route: routes[1],
      rawParams: { detectionId: 'd-1' },
    });
    expect(matchQueryRoute(routes, 'POST', '/api-key/v1/detections/d%2F1/events')).toEqual({
      route: routes[2],
      rawParams: { detectionId: 'd%2F1' },
    });
  });

  it('leaves other methods, longer or shorter paths and empty parameters to the application', () => {
    expect(matchQueryRoute(routes, 'GET', '/api-key/v1/events')).toBeUndefined();
    expect(matchQueryRoute(routes, 'DELETE', '/api-key/v1/detections/d-1')).toBeUndefined();
    expect(matchQueryRoute(routes, 'GET', '/api-key/v1/detections/d-1/x')).toBeUndefined();
    expect(matchQueryRoute(routes, 'GET', '/api-key/v1/detections/')).toBeUndefined();
    expect(matchQueryRoute(routes, 'GET', '/api-key/v1/detections//')).toBeUndefined();
    expect(matchQueryRoute(routes, 'GET', '/api-key/v1')).toBeUndefined();
  });

  it('matches as Express does by default: fixed segments in any case, one trailing slash, HEAD as GET', () => {
    expect(matchQueryRoute(routes, 'POST', '/API-KEY/v1/Events')?.route).toBe(routes[0]);
    expect(matchQueryRoute(routes, 'POST', '/api-key/v1/events/')?.route).toBe(routes[0]);
    expect(matchQueryRoute(routes, 'HEAD', '/api-key/v1/detections/D-1')?.rawParams).toEqual({
      detectionId: 'D-1',
    });
  });
});
