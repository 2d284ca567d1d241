import { randomUUID } from 'node:crypto';
import type { RunningApp } from '@vigil/config';
import { createApiTokenService, type ApiTokenService, type SqlClient } from '@vigil/control-plane';
import { startApi } from '../../apps/api/src/start-api';
import { startIndexer } from '../../apps/indexer/src/start-indexer';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { capabilityEnvironments, openEnvironmentSql } from '../support/capability-environments';
import { anEventInput, anInvestigationInput } from '../support/factories';
import { eventually, request, type JsonResponse } from '../support/http-client';

jest.setTimeout(120_000);

const T0 = Date.UTC(2025, 5, 1, 8, 0, 0, 0);

describe.each(capabilityEnvironments({ mixed: true }))('query API on %s', (_name, env) => {
  const apps: RunningApp[] = [];
  let sql: SqlClient;
  let tokens: ApiTokenService;
  let apiUrl: string;
  let reader: string;

  const run = randomUUID().slice(0, 8);
  const DETECTION = `det-query-${run}`;
  const OTHER = `det-other-${run}`;
  const PEOPLE = [
    { employee_email: 'Ada@Example.com', employee_name: 'Ada L.' },
    { employee_email: 'ada@example.com', employee_name: 'Ada Lovelace' },
    { employee_email: 'grace@example.com', employee_name: 'Grace Hopper' },
    { employee_email: 'alan@example.com', employee_name: 'Alan Turing' },
    { employee_email: 'grace@example.com', employee_name: 'Grace Hopper' },
  ];
  const events = PEOPLE.map((person, i) =>
    anEventInput({
      id: `evt-${run}-${i}`,
      detection_id: DETECTION,
      detection_name: 'Impossible travel',
      ...person,
      happened: new Date(T0 + i * 1_000).toISOString(),
      risk_score: [4.25, 9.75, 2.5, 0.5, 6][i],
      source: i % 2 === 0 ? 'okta' : 'google',
      description: `Sign-in ${i}`,
    }),
  );
  const otherEvent = anEventInput({
    id: `evt-${run}-other`,
    detection_id: OTHER,
    happened: new Date(T0 + 10_000).toISOString(),
  });
  const report = anInvestigationInput({
    id: `inv-${run}`,
    detection: { id: DETECTION, name: 'Impossible travel' },
  });

  const everyId = `id IN (${[...events, otherEvent].map((e) => `'${e.id}'`).join(', ')})`;

  const post = (path: string, json: unknown, token = reader) =>
    request('POST', `${apiUrl}/api-key/v1${path}`, { token, json });
  const get = (path: string, token = reader) =>
    request('GET', `${apiUrl}/api-key/v1${path}`, { token });

  beforeAll(async () => {
    sql = await openEnvironmentSql(env);
    tokens = createApiTokenService(sql);
    const appEnv = { ...env, API_PORT: '0', INGEST_PORT: '0', API_RATE_LIMIT_PER_MINUTE: '100000' };
    apps.push(await startIndexer(appEnv));
    const ingest = await startIngest(appEnv);
    apps.push(ingest);
    const api = await startApi(appEnv);
    apps.push(api);
    apiUrl = api.url!;

    const writer = (
      await tokens.createToken({ name: 'connector', permissions: { detection: 'write' } })
    ).value;
    reader = (await tokens.createToken({ name: 'script', permissions: { detection: 'read' } }))
      .value;
    for (const [path, body] of [
      ['detection-events', [...events, otherEvent]],
      ['investigations', [report]],
    ] as const) {
      const response = await request('POST', `${ingest.url}/ingest/v1/${path}`, {
        token: writer,
        json: body,
      });
      expect(response.status).toBe(202);
    }
    await eventually(async () => {
      const all = await post('/events', { query: everyId });
      const found = await get(`/investigations/${report.id}`);
      return all.body?.items?.length === 6 && found.status === 200 ? true : undefined;
    });
  });

  afterAll(async () => {
    for (const app of apps.reverse()) await app.stop();
    await tokens?.drain();
    await sql?.close();
  });

  it('filters events with the query language, newest first, every field as ingested', async () => {
    const response = await post(`/detections/${DETECTION}/events`, {
      query: `risk_score > 3 AND source = 'okta'`,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      // Ingest stores email addresses lowercased.
      items: [events[4], events[0]].map((event) => ({
        ...event,
        employee_email: event.employee_email.toLowerCase(),
      })),
      pagination: { count: 2, next_cursor: null },
    });
    const byEmail = await post('/events', {
      query: `${everyId} AND employee_email = 'ADA@example.com'`,
    });
    expect(byEmail.body.items.map((e: { id: string }) => e.id)).toEqual([
      otherEvent.id,
      events[1].id,
      events[0].id,
    ]);
  });

  it('pages through with cursors to a null cursor, without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: JsonResponse = await post('/events', {
        query: everyId,
        limit: 2,
        cursor,
      });
      expect(response.status).toBe(200);
      seen.push(...response.body.items.map((e: { id: string }) => e.id));
      cursor = response.body.pagination.next_cursor;
      pages += 1;
    } while (cursor !== null);
    expect(seen).toEqual([otherEvent, ...[...events].reverse()].map((e) => e.id as string));
    expect(pages).toBe(3);

    const first = await post(`/detections/${DETECTION}/events`, { limit: 3 });
    const rest = await post(`/detections/${DETECTION}/events`, {
      limit: 3,
      cursor: first.body.pagination.next_cursor,
    });
    expect([...first.body.items, ...rest.body.items].map((e: { id: string }) => e.id)).toEqual(
      [...events].reverse().map((e) => e.id as string),
    );
    expect(rest.body.pagination.next_cursor).toBeNull();
  });

  it('gives a detection’s exact figures and its affected users', async () => {
    const details = await get(`/detections/${DETECTION}`);
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      id: DETECTION,
      name: 'Impossible travel',
      event_count: 5,
      user_count: 3,
      first_seen: new Date(T0).toISOString(),
      last_seen: new Date(T0 + 4_000).toISOString(),
      max_risk_score: 9.75,
      notification: expect.objectContaining({ configuration: 'global' }),
    });

    const users = await get(`/detections/${DETECTION}/users`);
    expect(users.status).toBe(200);
    expect(users.body).toEqual({
      items: [
        {
          employee_email: 'ada@example.com',
          employee_name: expect.any(String),
          event_count: 2,
          max_risk_score: 9.75,
          last_seen: new Date(T0 + 1_000).toISOString(),
        },
        {
          employee_email: 'alan@example.com',
          employee_name: 'Alan Turing',
          event_count: 1,
          max_risk_score: 0.5,
          last_seen: new Date(T0 + 3_000).toISOString(),
        },
        {
          employee_email: 'grace@example.com',
          employee_name: 'Grace Hopper',
          event_count: 2,
          max_risk_score: 6,
          last_seen: new Date(T0 + 4_000).toISOString(),
        },
      ],
      pagination: { count: 3, next_cursor: null },
    });
    expect((await get(`/detections/det-unknown-${run}`)).status).toBe(404);
  });

  it('returns an investigation’s full report', async () => {
    const response = await get(`/investigations/${report.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: report.id,
      headline: report.headline,
      findings: report.findings,
      person: report.person,
      detection: report.detection,
      updated_at: report.updated_at,
    });
    expect((await get(`/investigations/inv-unknown-${run}`)).status).toBe(404);
  });

  it('answers a bad query with 400 invalid_query and where it went wrong', async () => {
    const response = await post('/events', { query: 'risk_score > 5 AND\nsource = okta' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'invalid_query',
      details: { position: 28, line: 2, column: 10, expected: 'a quoted string', found: 'okta' },
    });
  });

  it('applies the token rules: 401 without or with an unknown token, 403 without the scope', async () => {
    const missing = await post('/events', {}, '');
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('missing_token');
    const unknown = await post('/events', {}, 'vgk1-not-a-real-token');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('invalid_token');

    const riskOnly = (
      await tokens.createToken({ name: 'risk script', permissions: { risk: 'read' } })
    ).value;
    const forbidden = await get(`/detections/${DETECTION}`, riskOnly);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({
      code: 'insufficient_scope',
      details: { scope: 'detection', level: 'read' },
    });

    const revoked = await tokens.createToken({
      name: 'revoked script',
      permissions: { detection: 'read' },
    });
    expect((await post('/events', {}, revoked.value)).status).toBe(200);
    await tokens.deleteToken(revoked.token.id);
    expect((await post('/events', {}, revoked.value)).status).toBe(401);
  });
});
