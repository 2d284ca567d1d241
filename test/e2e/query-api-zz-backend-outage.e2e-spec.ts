import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { anEventRecord, anInvestigationRecord } from '@vigil/contracts';
import { eventually, request, type JsonResponse } from '../support/http-client';
import { responseSchema, schemaViolations } from '../support/openapi-schema-check';
import { startQueryApiHarness, type QueryApiHarness } from '../support/query-api-harness';

jest.setTimeout(300_000);

const run = promisify(execFile);

/**
 * Stops or starts the local Elasticsearch through the script that manages it (`start` waits
 * until it is healthy). The bookkeeping variables of an enclosing `npm test` are left out, so
 * that run still stops only what it started itself.
 */
async function elasticsearch(action: 'stop' | 'start'): Promise<void> {
  const env = { ...process.env };
  delete env.VIGIL_STARTED_FILE;
  delete env.VIGIL_STOP_ONLY_STARTED;
  await run('bash', ['deploy/local/servers.sh', action, 'elasticsearch'], {
    cwd: `${__dirname}/../..`,
    env,
    timeout: 240_000,
  });
}

describe('query API while Elasticsearch is down', () => {
  let api: QueryApiHarness;
  let token: string;
  let document: Record<string, unknown>;

  const endpoints: { method: string; path: string; url: string; json?: unknown }[] = [
    { method: 'POST', path: '/api-key/v1/events', url: '/api-key/v1/events', json: {} },
    {
      method: 'GET',
      path: '/api-key/v1/detections/{detection_id}',
      url: '/api-key/v1/detections/det-outage',
    },
    {
      method: 'POST',
      path: '/api-key/v1/detections/{detection_id}/events',
      url: '/api-key/v1/detections/det-outage/events',
      json: {},
    },
    {
      method: 'GET',
      path: '/api-key/v1/detections/{detection_id}/users',
      url: '/api-key/v1/detections/det-outage/users',
    },
    {
      method: 'GET',
      path: '/api-key/v1/investigations/{investigation_id}',
      url: '/api-key/v1/investigations/inv-outage',
    },
  ];
  const callAll = () =>
    Promise.all(
      endpoints.map((e) => request(e.method, `${api.url}${e.url}`, { token, json: e.json })),
    );

  beforeAll(async () => {
    api = await startQueryApiHarness('query-api-outage');
    await api.index([anEventRecord({ id: 'evt-outage', detection_id: 'det-outage' })]);
    await api.indexInvestigations([anInvestigationRecord({ id: 'inv-outage' })]);
    token = await api.token({ detection: 'read' });
    document = (await request('GET', `${api.url}/api-key/v1/openapi.json`)).body;
  });

  afterAll(async () => {
    // Whatever happened above, the servers are left healthy for everything that follows.
    await elasticsearch('start');
    await api?.stop();
  });

  it('answers 503 backend_unavailable with Retry-After, then recovers without a restart', async () => {
    const before = await callAll();
    expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    await elasticsearch('stop');
    const during = await callAll();
    during.forEach((response: JsonResponse, i) => {
      const { method, path } = endpoints[i];
      expect({ endpoint: path, status: response.status }).toEqual({ endpoint: path, status: 503 });
      expect(response.body.error).toEqual({
        code: 'backend_unavailable',
        message: 'Elasticsearch is unavailable; retry later',
        details: { backend: 'Elasticsearch' },
      });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(
        schemaViolations(document, responseSchema(document, path, method, 503), response.body),
      ).toEqual([]);
    });

    await elasticsearch('start');
    const after = await eventually(
      async () => {
        const responses = await callAll();
        return responses.every((r) => r.status === 200) ? responses : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 1_000 },
    );
    expect(after.map((r): unknown => r.body)).toEqual(before.map((r): unknown => r.body));
  });
});
