/**
 * The floor of bench:query, run as a process of its own like the API so that its CPU time can be
 * read apart: `{ query }` in, the page out, over node:http with its own Elasticsearch client, no
 * framework and no token. Listens on 127.0.0.1:BENCH_PORT and searches BENCH_INDEX.
 *
 * With BENCH_TOKEN_DATABASE_URL it also checks each request's bearer token the least way the
 * design allows (leastTokenCheck), alongside the search, and answers 401 when it fails: the floor
 * of an API that must refuse a deleted token on its next request.
 */
import { createServer } from 'node:http';
import type { estypes } from '@elastic/elasticsearch';
import { Pool } from 'pg';
import { createElasticsearchClient, toEventView, type EventDocument } from '@vigil/search';
import { leastTokenCheck } from './least-token-check';
import { searchRequest } from './search-request';

const index = process.env.BENCH_INDEX!;
const es = createElasticsearchClient(process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200');
const tokenDatabaseUrl = process.env.BENCH_TOKEN_DATABASE_URL;
const pool =
  tokenDatabaseUrl === undefined
    ? undefined
    : new Pool({ connectionString: tokenDatabaseUrl, max: 1 });
const checkToken = pool === undefined ? undefined : leastTokenCheck(pool);
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let query: string;
    try {
      ({ query } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string });
    } catch {
      // The readiness probe: any answer will do.
      res.writeHead(400).end();
      return;
    }
    const answer = (response: estypes.SearchResponse<EventDocument>) => {
      const items = response.hits.hits.slice(0, 100).map((hit) => toEventView(hit._source!));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items, pagination: { count: items.length, next_cursor: null } }));
    };
    const fail = () => res.writeHead(500).end();
    const search = es.search<EventDocument>(searchRequest(index, query));
    if (checkToken === undefined) {
      search.then(answer, fail);
      return;
    }
    Promise.all([checkToken(req.headers.authorization), search]).then(
      ([passed, response]) =>
        passed
          ? answer(response)
          : res
              .writeHead(401, { 'content-type': 'application/json' })
              .end('{"code":"invalid_token"}'),
      fail,
    );
  });
});
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
  void es.close();
  void pool?.end();
});
