import { SqlNotificationSettingsStore } from '@vigil/control-plane';
import { anEventRecord, anInvestigationRecord } from '@vigil/contracts';
import { request, type JsonResponse } from '../support/http-client';
import { answerProblems } from '../support/openapi-schema-check';
import { startQueryApiHarness, type QueryApiHarness } from '../support/query-api-harness';
import { UNREADABLE_TARGET_REFUSAL, rawExchange } from '../support/raw-exchange';

jest.setTimeout(60_000);

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const T0 = Date.UTC(2025, 5, 1, 8, 0, 0, 0);

/** Every response the suite sees, with the documented path it answers, for the OpenAPI check. */
interface Recorded {
  method: string;
  path: string;
  response: JsonResponse;
}

describe('query API /api-key/v1', () => {
  let api: QueryApiHarness;
  let limited: QueryApiHarness;
  let reader: string;
  const recorded: Recorded[] = [];

  const detectionEvents = [
    // Two spellings of one user, a tie on `happened` (ordered by id), decimals.
    anEventRecord({
      id: 'evt-a-3',
      detection_id: 'det-a',
      detection_name: 'Impossible travel',
      employee_email: 'Ada@Example.com',
      employee_name: 'Ada L.',
      happened: T0 + 3_000,
      risk_score: 4.25,
    }),
    anEventRecord({
      id: 'evt-a-1',
      detection_id: 'det-a',
      employee_email: 'ada@example.com',
      employee_name: 'Ada Lovelace',
      happened: T0 + 5_123,
      risk_score: 9.75,
      source: 'google',
      high_prevalence: true,
    }),
    anEventRecord({
      id: 'evt-a-2',
      detection_id: 'det-a',
      employee_email: 'grace@example.com',
      employee_name: 'Grace Hopper',
      happened: T0 + 5_123,
      risk_score: 2.5,
      allowlisted: true,
    }),
    anEventRecord({
      id: 'evt-a-0',
      detection_id: 'det-a',
      employee_email: 'alan@example.com',
      employee_name: 'Alan Turing',
      happened: T0 + 1,
      risk_score: 0.1,
    }),
  ];
  // 250 users, one event each, on one detection: more than a default page of anything.
  const crowd = Array.from({ length: 250 }, (_, i) =>
    anEventRecord({
      id: `evt-crowd-${String(i).padStart(3, '0')}`,
      detection_id: 'det-crowd',
      detection_name: 'Mass phishing',
      employee_email: `User${String(i).padStart(3, '0')}@Example.com`,
      employee_name: `User ${i}`,
      happened: T0 + Math.floor(i / 3) * 7,
      risk_score: (i % 10) + 0.5,
    }),
  );
  const report = anInvestigationRecord({ id: 'inv-1', outcome: null });

  async function call(
    method: string,
    path: string,
    url: string,
    options: Parameters<typeof request>[2] = {},
  ): Promise<JsonResponse> {
    const response = await request(method, url, options);
    recorded.push({ method, path, response });
    return response;
  }
  const events = (body: unknown, token = reader, base = api.url) =>
    call('POST', '/api-key/v1/events', `${base}/api-key/v1/events`, { token, json: body });
  const detection = (id: string, token = reader) =>
    call('GET', '/api-key/v1/detections/{detection_id}', `${api.url}/api-key/v1/detections/${id}`, {
      token,
    });
  const detectionEventsOf = (id: string, options: Parameters<typeof request>[2]) =>
    call(
      'POST',
      '/api-key/v1/detections/{detection_id}/events',
      `${api.url}/api-key/v1/detections/${id}/events`,
      { token: reader, ...options },
    );
  const users = (id: string, query = '', token = reader) =>
    call(
      'GET',
      '/api-key/v1/detections/{detection_id}/users',
      `${api.url}/api-key/v1/detections/${id}/users${query}`,
      { token },
    );
  const investigation = (id: string) =>
    call(
      'GET',
      '/api-key/v1/investigations/{investigation_id}',
      `${api.url}/api-key/v1/investigations/${id}`,
      { token: reader },
    );

  beforeAll(async () => {
    api = await startQueryApiHarness('query-api');
    limited = await startQueryApiHarness('query-api-limited', { API_RATE_LIMIT_PER_MINUTE: '3' });
    await api.index([...detectionEvents, ...crowd]);
    await api.indexInvestigations([report]);
    reader = await api.token({ detection: 'read' });
  });

  afterAll(async () => {
    await api?.stop();
    await limited?.stop();
  });

  describe('POST /events', () => {
    it('returns the event of an id lookup with every field, happened in UTC with milliseconds', async () => {
      const response = await events({ query: "id = 'evt-a-1'" });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        items: [
          {
            id: 'evt-a-1',
            issue_type: 'impossible_travel',
            employee_email: 'ada@example.com',
            employee_name: 'Ada Lovelace',
            asset_name: 'laptop-17',
            happened: '2025-06-01T08:00:05.123Z',
            risk_score: 9.75,
            source: 'google',
            high_prevalence: true,
            allowlisted: false,
            detection_id: 'det-a',
            detection_name: 'Impossible travel',
            description: 'impossible travel on okta',
          },
        ],
        pagination: { count: 1, next_cursor: null },
      });
    });

    it('orders by happened descending, then id, and pages through with cursors to a null cursor', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response: JsonResponse = await events({
          query: "id >= 'evt-a' AND id < 'evt-b' OR id IN ('evt-crowd-000', 'evt-crowd-001')",
          limit: 2,
          cursor,
        });
        expect(response.status).toBe(200);
        expect(response.body.pagination.count).toBe(response.body.items.length);
        seen.push(...response.body.items.map((e: { id: string }) => e.id));
        cursor = response.body.pagination.next_cursor;
        pages += 1;
      } while (cursor !== null);
      expect(seen).toEqual([
        'evt-a-1',
        'evt-a-2',
        'evt-a-3',
        'evt-a-0',
        'evt-crowd-000',
        'evt-crowd-001',
      ]);
      expect(pages).toBe(3);
    });

    it('compares employee_email case-insensitively and timestamps to the millisecond', async () => {
      const byEmail = await events({ query: "employee_email = 'ADA@example.COM'" });
      expect(byEmail.body.items.map((e: { id: string }) => e.id)).toEqual(['evt-a-1', 'evt-a-3']);
      const exact = await events({ query: "happened = '2025-06-01T08:00:05.123Z'" });
      expect(exact.body.items.map((e: { id: string }) => e.id)).toEqual(['evt-a-1', 'evt-a-2']);
      const after = await events({
        query: "happened > '2025-06-01T08:00:05.122Z' AND risk_score > 2",
      });
      expect(after.body.items.map((e: { id: string }) => e.id)).toEqual(['evt-a-1', 'evt-a-2']);
    });

    it('answers 100 events by default and at most the limit asked', async () => {
      const first = await events({});
      expect(first.body.pagination.count).toBe(100);
      expect(first.body.pagination.next_cursor).toEqual(expect.any(String));
      const all = await events({ limit: 1000 });
      expect(all.body.pagination).toEqual({ count: 254, next_cursor: null });
      for (const item of all.body.items) expect(item.happened).toMatch(ISO_MS);
    });

    it('answers an invalid query with 400 invalid_query saying where and what was expected', async () => {
      const response = await events({ query: 'risk_score > 5 AND\nsource = okta' });
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({
        code: 'invalid_query',
        message: expect.any(String),
        details: {
          position: 28,
          line: 2,
          column: 10,
          expected: 'a quoted string',
          found: 'okta',
        },
      });
    });

    it.each([
      ['a limit of 0', { limit: 0 }],
      ['a limit over 1000', { limit: 1001 }],
      ['a fractional limit', { limit: 1.5 }],
      ['a limit given as text', { limit: '10' }],
      ['a cursor it did not issue', { cursor: 'bm90LWEtY3Vyc29y' }],
      ['an unknown field', { query: '', sort: 'id' }],
      ['a query that is not a string', { query: 5 }],
      ['an array body', []],
    ])('answers %s with 400 invalid_request', async (_case, body) => {
      const response = await events(body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    });

    it('answers malformed JSON with 400 invalid_request', async () => {
      const response = await call('POST', '/api-key/v1/events', `${api.url}/api-key/v1/events`, {
        token: reader,
        body: '{"query": ',
        contentType: 'application/json',
      });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    });

    it('refuses a body over the size limit with 413 and a non-JSON body with 415', async () => {
      const big = await call('POST', '/api-key/v1/events', `${api.url}/api-key/v1/events`, {
        token: reader,
        json: { query: `id = '${'x'.repeat(70 * 1024)}'` },
      });
      expect(big.status).toBe(413);
      expect(big.body.error.code).toBe('payload_too_large');
      const text = await call('POST', '/api-key/v1/events', `${api.url}/api-key/v1/events`, {
        token: reader,
        body: "id = 'evt-a-1'",
        contentType: 'text/plain',
      });
      expect(text.status).toBe(415);
      expect(text.body.error.code).toBe('unsupported_media_type');
    });

    it('answers a request target no URL parser reads with 400, and goes on serving', async () => {
      const answer = await rawExchange(
        api.url,
        'GET http://[::1:80/api-key/v1/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
      expect(answer.head).toMatch(/^x-request-id: \S+/im);
      expect(JSON.parse(answer.body)).toEqual(UNREADABLE_TARGET_REFUSAL);
      const after = await call('POST', '/api-key/v1/events', `${api.url}/api-key/v1/events`, {
        token: reader,
        json: { query: "id = 'evt-a-1'" },
      });
      expect(after.status).toBe(200);
    });
  });

  describe('GET /detections/{id}', () => {
    it('gives exact figures: events, distinct users across email spellings, first and last seen', async () => {
      const response = await detection('det-a');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: 'det-a',
        name: 'Impossible travel',
        event_count: 4,
        user_count: 3,
        first_seen: '2025-06-01T08:00:00.001Z',
        last_seen: '2025-06-01T08:00:05.123Z',
        max_risk_score: 9.75,
        // The run's database is shared with other files that change the global settings.
        notification: expect.objectContaining({ configuration: 'global' }),
        action_url: 'http://127.0.0.1:3002/u/detections/det-a',
      });
      const crowded = await detection('det-crowd');
      expect(crowded.body).toMatchObject({ event_count: 250, user_count: 250 });
    });

    it('reports the notification state in force: a snoozed custom configuration', async () => {
      const store = new SqlNotificationSettingsStore(api.sql);
      const until = Date.now() + 60 * 60 * 1000;
      const global = await store.getGlobal();
      await store.saveDetectionConfig('det-crowd', {
        useCustom: true,
        custom: { ...global, frequency: 'immediate', silence: { kind: 'snoozed', until } },
      });
      const response = await detection('det-crowd');
      expect(response.body.notification).toEqual({
        configuration: 'custom',
        state: 'snoozed',
        snoozed_until: new Date(until).toISOString(),
        frequency: 'immediate',
        email_enabled: global.emailEnabled,
        webhook_enabled: global.webhookEnabled,
      });
    });

    it('answers an unknown detection with 404 not_found and a malformed id with 400', async () => {
      const unknown = await detection('det-nope');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toEqual({
        code: 'not_found',
        message: 'Detection "det-nope" was not found',
        details: { id: 'det-nope' },
      });
      const malformed = await detection('det%20a');
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.code).toBe('invalid_request');
    });
  });

  describe('POST /detections/{id}/events', () => {
    it('accepts an empty object, and no body at all, and returns only that detection’s events', async () => {
      const empty = await detectionEventsOf('det-a', { json: {} });
      expect(empty.status).toBe(200);
      expect(empty.body.items.map((e: { id: string }) => e.id)).toEqual([
        'evt-a-1',
        'evt-a-2',
        'evt-a-3',
        'evt-a-0',
      ]);
      expect(empty.body.pagination).toEqual({ count: 4, next_cursor: null });
      const none = await detectionEventsOf('det-a', {});
      expect(none.body).toEqual(empty.body);
    });

    it('filters with the query language and pages with cursors', async () => {
      const filtered = await detectionEventsOf('det-a', { json: { query: 'risk_score < 3' } });
      expect(filtered.body.items.map((e: { id: string }) => e.id)).toEqual(['evt-a-2', 'evt-a-0']);
      const first = await detectionEventsOf('det-crowd', { json: { limit: 200 } });
      const second = await detectionEventsOf('det-crowd', {
        json: { limit: 200, cursor: first.body.pagination.next_cursor },
      });
      expect(first.body.pagination.count).toBe(200);
      expect(second.body.pagination).toEqual({ count: 50, next_cursor: null });
      const ids = [...first.body.items, ...second.body.items].map((e: { id: string }) => e.id);
      expect(new Set(ids).size).toBe(250);
    });

    it('answers 200 with no items when nothing matches, and 404 for an unknown detection', async () => {
      const nothing = await detectionEventsOf('det-a', { json: { query: 'risk_score > 100' } });
      expect(nothing.status).toBe(200);
      expect(nothing.body).toEqual({ items: [], pagination: { count: 0, next_cursor: null } });
      const unknown = await detectionEventsOf('det-nope', { json: {} });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('not_found');
    });
  });

  describe('GET /detections/{id}/users', () => {
    it('lists each user once by lowercased email with counts, highest risk and last seen', async () => {
      const response = await users('det-a');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        items: [
          {
            employee_email: 'ada@example.com',
            employee_name: 'Ada Lovelace',
            event_count: 2,
            max_risk_score: 9.75,
            last_seen: '2025-06-01T08:00:05.123Z',
          },
          {
            employee_email: 'alan@example.com',
            employee_name: 'Alan Turing',
            event_count: 1,
            max_risk_score: 0.1,
            last_seen: '2025-06-01T08:00:00.001Z',
          },
          {
            employee_email: 'grace@example.com',
            employee_name: 'Grace Hopper',
            event_count: 1,
            max_risk_score: 2.5,
            last_seen: '2025-06-01T08:00:05.123Z',
          },
        ],
        pagination: { count: 3, next_cursor: null },
      });
    });

    it('pages through many users with limit and cursor, 100 by default', async () => {
      const first = await users('det-crowd');
      expect(first.body.pagination.count).toBe(100);
      const emails: string[] = first.body.items.map(
        (u: { employee_email: string }) => u.employee_email,
      );
      let cursor: string | null = first.body.pagination.next_cursor;
      while (cursor !== null) {
        const page = await users('det-crowd', `?limit=70&cursor=${encodeURIComponent(cursor)}`);
        expect(page.status).toBe(200);
        emails.push(...page.body.items.map((u: { employee_email: string }) => u.employee_email));
        cursor = page.body.pagination.next_cursor;
      }
      expect(emails).toEqual(crowd.map((e) => e.employee_email.toLowerCase()));
    });

    it.each([
      ['a limit of 0', '?limit=0'],
      ['a limit over 1000', '?limit=1001'],
      ['a limit that is not a number', '?limit=ten'],
      ['a cursor it did not issue', '?cursor=abc'],
      ['an event cursor', '?cursor=WzEsImV2dC0xIl0'],
      ['an unknown parameter', '?sort=email'],
    ])('answers %s with 400 invalid_request', async (_case, query) => {
      const response = await users('det-a', query);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    });

    it('answers an unknown detection with 404', async () => {
      const response = await users('det-nope');
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    });
  });

  describe('GET /investigations/{id}', () => {
    it('returns the full report with its link', async () => {
      const response = await investigation('inv-1');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        ...report,
        updated_at: '2025-05-02T09:30:00.005Z',
        action_url: 'http://127.0.0.1:3002/u/investigations/inv-1',
      });
    });

    it('answers an unknown investigation with 404 not_found', async () => {
      const response = await investigation('inv-nope');
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'not_found', details: { id: 'inv-nope' } });
    });
  });

  describe('tokens and scopes', () => {
    it('answers a request without a token with 401 missing_token and a Bearer challenge', async () => {
      const response = await events({}, '');
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('missing_token');
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="vigil"');
    });

    it('answers an unknown token with 401 invalid_token', async () => {
      const response = await events({}, 'vgk1-not-a-real-token');
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('invalid_token');
      expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    });

    it('answers an expired token with 401 token_expired', async () => {
      const created = await api.tokens.createToken({
        name: 'old script',
        permissions: { detection: 'read' },
      });
      await api.sql.query(
        `UPDATE api_tokens SET created_at = now() - interval '2 days',
           expires_at = now() - interval '1 day' WHERE id = $1`,
        [created.token.id],
      );
      const response = await events({}, created.value);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('token_expired');
      expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    });

    it('rejects a deleted token on the very next request', async () => {
      const created = await api.tokens.createToken({
        name: 'revoked script',
        permissions: { detection: 'read' },
      });
      expect((await events({}, created.value)).status).toBe(200);
      await api.tokens.deleteToken(created.token.id);
      const response = await events({}, created.value);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('invalid_token');
    });

    it('answers a token deleted or expired since its last request with 401, not the query error', async () => {
      const deleted = await api.tokens.createToken({
        name: 'revoked script',
        permissions: { detection: 'read' },
      });
      const expired = await api.tokens.createToken({
        name: 'lapsed script',
        permissions: { detection: 'read' },
      });
      expect((await events({}, deleted.value)).status).toBe(200);
      expect((await events({}, expired.value)).status).toBe(200);
      await api.tokens.deleteToken(deleted.token.id);
      await api.sql.query(
        `UPDATE api_tokens SET created_at = now() - interval '2 days',
           expires_at = now() - interval '1 day' WHERE id = $1`,
        [expired.token.id],
      );
      const invalidQuery = { query: "source = 'okta' AND" };
      const afterDeletion = await events(invalidQuery, deleted.value);
      expect(afterDeletion.status).toBe(401);
      expect(afterDeletion.body.error.code).toBe('invalid_token');
      const afterExpiry = await events(invalidQuery, expired.value);
      expect(afterExpiry.status).toBe(401);
      expect(afterExpiry.body.error.code).toBe('token_expired');
    });

    it('answers a token without the Detection scope with 403 insufficient_scope on every endpoint', async () => {
      const riskOnly = await api.token({ risk: 'read' });
      const responses = [
        await events({}, riskOnly),
        await detection('det-a', riskOnly),
        await users('det-a', '', riskOnly),
        await call(
          'POST',
          '/api-key/v1/detections/{detection_id}/events',
          `${api.url}/api-key/v1/detections/det-a/events`,
          { token: riskOnly, json: {} },
        ),
        await call(
          'GET',
          '/api-key/v1/investigations/{investigation_id}',
          `${api.url}/api-key/v1/investigations/inv-1`,
          { token: riskOnly },
        ),
      ];
      for (const response of responses) {
        expect(response.status).toBe(403);
        expect(response.body.error).toEqual({
          code: 'insufficient_scope',
          message: expect.stringContaining('Detection'),
          details: { scope: 'detection', level: 'read' },
        });
        expect(response.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
      }
    });

    it('accepts Admin at Read-only for the Detection scope', async () => {
      const admin = await api.token({ admin: 'read' });
      expect((await detection('det-a', admin)).status).toBe(200);
    });

    it('limits each token per minute: 429 rate_limited with Retry-After, other tokens unaffected', async () => {
      const busy = await limited.token({ detection: 'read' });
      const calm = await limited.token({ detection: 'read' });
      const statuses: number[] = [];
      let last: JsonResponse | undefined;
      for (let i = 0; i < 4; i += 1) {
        last = await events({}, busy, limited.url);
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last!.body.error).toMatchObject({ code: 'rate_limited', details: { limit: 3 } });
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(last!.headers.get('ratelimit-remaining')).toBe('0');
      const other = await events({}, calm, limited.url);
      expect(other.status).toBe(200);
      expect(other.headers.get('ratelimit-limit')).toBe('3');
      expect(other.headers.get('ratelimit-remaining')).toBe('2');
    });
  });

  describe('the OpenAPI document', () => {
    it('is served without a token', async () => {
      const response = await request('GET', `${api.url}/api-key/v1/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.body.openapi).toBe('3.0.3');
    });

    it('describes every response above: body schema, status and headers', async () => {
      const document = (await request('GET', `${api.url}/api-key/v1/openapi.json`)).body;
      const { problems, covered } = answerProblems(document, recorded);
      expect(problems).toEqual([]);
      const endpoints = [
        'POST /api-key/v1/events',
        'GET /api-key/v1/detections/{detection_id}',
        'POST /api-key/v1/detections/{detection_id}/events',
        'GET /api-key/v1/detections/{detection_id}/users',
        'GET /api-key/v1/investigations/{investigation_id}',
      ];
      for (const endpoint of endpoints) {
        for (const status of [200, 403]) expect(covered).toContain(`${endpoint} → ${status}`);
      }
      for (const status of [400, 401, 413, 415, 429]) {
        expect(covered).toContain(`POST /api-key/v1/events → ${status}`);
      }
    });
  });
});
