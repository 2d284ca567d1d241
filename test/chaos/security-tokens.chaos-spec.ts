import { randomBytes } from 'node:crypto';
import type { Agent } from 'node:http';
import type { RunningApp } from '@vigil/config';
import {
  TOKEN_PREFIX,
  createApiTokenService,
  createPgSqlClient,
  generateTokenValue,
  type ApiTokenService,
  type SqlClient,
} from '@vigil/control-plane';
import { startApi } from '../../apps/api/src/start-api';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { anEventInput } from '../support/factories';
import { chaosScale } from './support/chaos-scale';
import {
  formatSummary,
  ksStatistic,
  probabilitySlower,
  summarize,
} from './support/latency-comparison';
import { oneConnection, timedRequest, type TimedResponse } from './support/timed-request';

jest.setTimeout(240_000);

const RATE_LIMIT = 20;
const BURST = 3 * RATE_LIMIT;
const TIMING_SAMPLES = chaosScale(400, 5_000);

/** A token value whose 32 random bytes are known, so a near miss of it can be built. */
function valueFrom(bytes: Buffer): string {
  return generateTokenValue(() => bytes);
}

/** The same value with one character of its checksum changed. */
function withWrongChecksum(value: string): string {
  const last = value.at(-1)!;
  return value.slice(0, -1) + (last === 'A' ? 'B' : 'A');
}

interface Endpoint {
  readonly name: string;
  readonly method: string;
  readonly url: () => string;
  readonly body?: string;
  readonly scope: string;
  readonly level: string;
}

describe('API tokens under attack (query API and ingest)', () => {
  let api: RunningApp;
  let limitedApi: RunningApp;
  let ingest: RunningApp;
  let sql: SqlClient;
  let tokens: ApiTokenService;
  let endpoints: Endpoint[];

  beforeAll(async () => {
    const env = { ...process.env, LOG_LEVEL: 'fatal' };
    api = await startApi({ ...env, API_PORT: '0', API_RATE_LIMIT_PER_MINUTE: '1000000' });
    limitedApi = await startApi({
      ...env,
      API_PORT: '0',
      API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    });
    ingest = await startIngest({ ...env, INGEST_PORT: '0' });
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    tokens = createApiTokenService(sql);
    endpoints = [
      {
        name: 'query API',
        method: 'POST',
        url: () => `${api.url}/api-key/v1/events`,
        body: JSON.stringify({ query: '' }),
        scope: 'detection',
        level: 'read',
      },
      {
        name: 'ingest',
        method: 'POST',
        url: () => `${ingest.url}/ingest/v1/detection-events`,
        body: JSON.stringify([anEventInput({ detection_id: 'det-token-chaos' })]),
        scope: 'detection',
        level: 'write',
      },
    ];
  });

  afterAll(async () => {
    await tokens?.drain();
    await api?.stop();
    await limitedApi?.stop();
    await ingest?.stop();
    await sql?.close();
  });

  function call(
    endpoint: Endpoint,
    authorization: string | string[] | undefined,
    agent: Agent | false = false,
  ): Promise<TimedResponse> {
    const headers: Record<string, string | string[]> = { 'content-type': 'application/json' };
    if (authorization !== undefined) headers.authorization = authorization;
    return timedRequest(endpoint.method, endpoint.url(), headers, endpoint.body, agent);
  }

  async function tokenWith(permissions: Record<string, string>): Promise<string> {
    return (await tokens.createToken({ name: 'chaos', permissions })).value;
  }

  function expectRefused(
    response: TimedResponse,
    label: string,
    code: 'missing_token' | 'invalid_token' | 'token_expired',
  ): void {
    const seen = `${label} → ${response.status} ${JSON.stringify(response.body)}`;
    expect([seen, response.status]).toEqual([seen, 401]);
    expect([seen, response.body?.error?.code]).toEqual([seen, code]);
    expect(response.headers['x-request-id']).toBeTruthy();
    const challenge = String(response.headers['www-authenticate']);
    if (code === 'missing_token') expect([seen, challenge]).toEqual([seen, 'Bearer realm="vigil"']);
    else
      expect([seen, challenge]).toEqual([
        seen,
        expect.stringMatching(/^Bearer realm="vigil", error="invalid_token"/),
      ]);
  }

  it('refuses every malformed Authorization header and token shape with 401 and a Bearer challenge', async () => {
    const full = { detection: 'write' };
    const valid = await tokenWith(full);
    const body = valid.slice(TOKEN_PREFIX.length);
    const cases: [string, string | string[] | undefined, 'missing_token' | 'invalid_token'][] = [
      ['no header', undefined, 'missing_token'],
      ['empty header', '', 'missing_token'],
      ['scheme only', 'Bearer', 'missing_token'],
      ['Basic scheme', `Basic ${Buffer.from(`x:${valid}`).toString('base64')}`, 'missing_token'],
      ['token without scheme', valid, 'missing_token'],
      ['other scheme', `Token ${valid}`, 'missing_token'],
      ['two spaces', `Bearer  ${valid}`, 'missing_token'],
      ['tab separator', `Bearer\t${valid}`, 'missing_token'],
      [
        'space inside the token',
        `Bearer ${valid.slice(0, 20)} ${valid.slice(20)}`,
        'missing_token',
      ],
      ['two tokens in one header', `Bearer ${valid}, Bearer ${valid}`, 'missing_token'],
      ['two Authorization headers', [`Bearer ${valid}`, `Bearer ${valid}`], 'missing_token'],
      [
        'two Authorization headers, the second one bad',
        [`Bearer ${valid}`, 'Bearer nonsense'],
        'missing_token',
      ],
      ['unknown short value', 'Bearer abc', 'invalid_token'],
      ['wrong prefix', `Bearer vgk2-${body}`, 'invalid_token'],
      ['upper-case prefix', `Bearer VGK1-${body}`, 'invalid_token'],
      ['foreign prefix', `Bearer ghp_${body}`, 'invalid_token'],
      ['no prefix', `Bearer ${body}`, 'invalid_token'],
      ['one character short', `Bearer ${valid.slice(0, -1)}`, 'invalid_token'],
      ['one character long', `Bearer ${valid}A`, 'invalid_token'],
      ['doubled', `Bearer ${valid}${valid}`, 'invalid_token'],
      ['very long', `Bearer ${'A'.repeat(6_000)}`, 'invalid_token'],
      ...['-', '_', '+', '/', '=', '.', '~', '%', '"', '\\'].map(
        (c): [string, string, 'invalid_token'] => [
          `non-base62 ${c}`,
          `Bearer ${valid.slice(0, 20)}${c}${valid.slice(21)}`,
          'invalid_token',
        ],
      ),
      ['wrong checksum', `Bearer ${withWrongChecksum(valid)}`, 'invalid_token'],
      [
        'one body character changed',
        `Bearer ${valid.slice(0, 10)}${valid[10] === 'a' ? 'b' : 'a'}${valid.slice(11)}`,
        'invalid_token',
      ],
      ['well-formed but unknown', `Bearer ${generateTokenValue()}`, 'invalid_token'],
    ];
    for (const endpoint of endpoints) {
      for (const [label, authorization, code] of cases) {
        expectRefused(await call(endpoint, authorization), `${endpoint.name}: ${label}`, code);
      }
      // The scheme is case-insensitive (RFC 7235 §2.1): these are the valid token, accepted.
      for (const scheme of ['bearer', 'BEARER']) {
        const accepted = await call(endpoint, `${scheme} ${valid}`);
        expect([endpoint.name, scheme, accepted.status]).toEqual([
          endpoint.name,
          scheme,
          endpoint.name === 'ingest' ? 202 : 200,
        ]);
      }
    }
  });

  it('refuses an expired token as token_expired, and a deleted one from the very next request', async () => {
    for (const endpoint of endpoints) {
      const expired = await tokens.createToken({
        name: 'old',
        permissions: { detection: 'write' },
      });
      await sql.query(
        `UPDATE api_tokens SET created_at = now() - interval '2 days',
           expires_at = now() - interval '1 second' WHERE id = $1`,
        [expired.token.id],
      );
      expectRefused(
        await call(endpoint, `Bearer ${expired.value}`),
        `${endpoint.name}: expired`,
        'token_expired',
      );

      const doomed = await tokens.createToken({
        name: 'doomed',
        permissions: { detection: 'write' },
      });
      const agent = oneConnection();
      expect((await call(endpoint, `Bearer ${doomed.value}`, agent)).status).toBeLessThan(300);
      await tokens.deleteToken(doomed.token.id);
      // Same kept-alive connection, straight after: no cache may keep the token alive.
      expectRefused(
        await call(endpoint, `Bearer ${doomed.value}`, agent),
        `${endpoint.name}: deleted`,
        'invalid_token',
      );
      agent.destroy();
    }
  });

  it('answers 403 insufficient_scope naming the scope and level for every scope short of the need', async () => {
    const scopes = ['training', 'risk', 'device', 'person', 'email', 'webhook'];
    for (const endpoint of endpoints) {
      const lacking: Record<string, string>[] = scopes.map((scope) => ({ [scope]: 'write' }));
      if (endpoint.level === 'write') lacking.push({ detection: 'read' }, { admin: 'read' });
      for (const permissions of lacking) {
        const response = await call(endpoint, `Bearer ${await tokenWith(permissions)}`);
        const seen = `${endpoint.name} with ${JSON.stringify(permissions)}`;
        expect([seen, response.status]).toEqual([seen, 403]);
        expect(response.body.error).toEqual({
          code: 'insufficient_scope',
          message: expect.stringContaining('Detection'),
          details: { scope: endpoint.scope, level: endpoint.level },
        });
        expect(response.headers['www-authenticate']).toBe(
          `Bearer realm="vigil", error="insufficient_scope", scope="${endpoint.scope}:${endpoint.level}"`,
        );
      }
    }
  });

  it('lets exactly the limit through in a concurrent burst from one token; the rest get 429 with Retry-After, another token is unaffected', async () => {
    const busy = await tokenWith({ detection: 'read' });
    const calm = await tokenWith({ detection: 'read' });
    const endpoint = { ...endpoints[0], url: () => `${limitedApi.url}/api-key/v1/events` };
    const responses = await Promise.all(
      Array.from({ length: BURST }, () => call(endpoint, `Bearer ${busy}`)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(BURST - RATE_LIMIT);
    for (const refused of responses.filter((r) => r.status === 429)) {
      expect(refused.body.error).toMatchObject({ code: 'rate_limited', details: { limit: 20 } });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Still spent afterwards (the window has not passed), and the other token has its own budget.
    expect((await call(endpoint, `Bearer ${busy}`)).status).toBe(429);
    const others = await Promise.all(
      Array.from({ length: RATE_LIMIT }, () => call(endpoint, `Bearer ${calm}`)),
    );
    expect(others.map((r) => r.status)).toEqual(Array(RATE_LIMIT).fill(200));
    // Refused tokens spend no budget of anyone: an unknown token's burst is 401, never 429.
    const unknown = await Promise.all(
      Array.from({ length: BURST }, () => call(endpoint, `Bearer ${generateTokenValue()}`)),
    );
    expect(new Set(unknown.map((r) => r.status))).toEqual(new Set([401]));
  });

  it('takes as long to refuse a known token as an unknown one: no timing difference beyond noise', async () => {
    const endpoint: Endpoint = {
      ...endpoints[0],
      method: 'GET',
      url: () => `${api.url}/api-key/v1/detections/det-timing`,
      body: undefined,
    };
    // A known token (expired, so every answer is a 401 like the unknown ones), and values that
    // differ from it in the last random byte: as close to the real one as a guess can get.
    const knownBytes = randomBytes(32);
    const knownValue = valueFrom(knownBytes);
    const known = await createApiTokenService(sql, { generateValue: () => knownValue }).createToken(
      { name: 'timing', permissions: { detection: 'read' } },
    );
    await sql.query(
      `UPDATE api_tokens SET created_at = now() - interval '2 days',
         expires_at = now() - interval '1 second' WHERE id = $1`,
      [known.token.id],
    );
    const nearMiss = () => {
      const bytes = Buffer.from(knownBytes);
      bytes[31] ^= 1 + (randomBytes(1)[0] % 255);
      return valueFrom(bytes);
    };
    const classes: Record<string, () => string> = {
      'unknown (random)': () => generateTokenValue(),
      'unknown (random, second sample)': () => generateTokenValue(),
      'unknown (near miss of a real token)': nearMiss,
      'known (expired)': () => knownValue,
      'wrong checksum (random)': () => withWrongChecksum(generateTokenValue()),
      'wrong checksum (of the real token)': () => withWrongChecksum(knownValue),
    };
    const names = Object.keys(classes);
    const samples = new Map<string, number[]>(names.map((n) => [n, []]));
    const agent = oneConnection();
    for (let i = 0; i < 100; i += 1) await call(endpoint, `Bearer ${generateTokenValue()}`, agent);
    for (let i = 0; i < TIMING_SAMPLES; i += 1) {
      // Round-robin in a shuffled order, so drift on a busy machine hits every class alike.
      const order = [...names].sort(() => Math.random() - 0.5);
      for (const name of order) {
        const authorization = `Bearer ${classes[name]()}`;
        const response = await call(endpoint, authorization, agent);
        expect(response.status).toBe(401);
        samples.get(name)!.push(response.elapsedMs);
      }
    }
    agent.destroy();

    const lines = names.map((n) => formatSummary(n, summarize(samples.get(n)!)));
    const compare = (a: string, b: string) => {
      const pa = samples.get(a)!;
      const pb = samples.get(b)!;
      const slower = probabilitySlower(pa, pb);
      const ks = ksStatistic(pa, pb);
      const ratio = summarize(pa).median / summarize(pb).median;
      lines.push(
        `${a} vs ${b}: P(slower) ${slower.toFixed(3)}, KS D ${ks.toFixed(3)}, median ratio ${ratio.toFixed(3)}`,
      );
      return { slower, ratio };
    };
    const noise = compare('unknown (random)', 'unknown (random, second sample)');
    const pairs = [
      compare('unknown (near miss of a real token)', 'unknown (random)'),
      compare('known (expired)', 'unknown (random)'),
      compare('wrong checksum (of the real token)', 'wrong checksum (random)'),
    ];
    // The documented shortcut (DESIGN.md §6): a bad checksum fails before any lookup. It only
    // tells whether the checksum, which anyone can compute, is right; printed, not asserted.
    compare('wrong checksum (random)', 'unknown (random)');
    process.stdout.write(
      `token lookup timing, ${TIMING_SAMPLES} requests per class:\n  ${lines.join('\n  ')}\n`,
    );

    // Effect-size bounds, not p-values: thousands of samples make any p-value tiny on a busy
    // machine, while a real leak (a lookup skipped or an early exit) moves P(slower) far from 0.5.
    const tolerance = Math.max(0.1, 2 * Math.abs(noise.slower - 0.5));
    for (const { slower, ratio } of pairs) {
      expect(Math.abs(slower - 0.5)).toBeLessThan(tolerance);
      expect(ratio).toBeGreaterThan(0.8);
      expect(ratio).toBeLessThan(1.25);
    }
  });
});
