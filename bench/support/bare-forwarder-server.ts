/**
 * The floor of bench:query, run as a process of its own like the API so that its CPU time can be
 * read apart: `{ query }` in, the page out, over node:http with its own Elasticsearch client, no
 * framework and no token. Listens on 127.0.0.1:BENCH_PORT and searches BENCH_INDEX.
 */
import { createServer } from 'node:http';
import { createElasticsearchClient, toEventView, type EventDocument } from '@vigil/search';
import { searchRequest } from './search-request';

const index = process.env.BENCH_INDEX!;
const es = createElasticsearchClient(process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200');
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
    es.search<EventDocument>(searchRequest(index, query)).then(
      (response) => {
        const items = response.hits.hits.slice(0, 100).map((hit) => toEventView(hit._source!));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ items, pagination: { count: items.length, next_cursor: null } }));
      },
      () => res.writeHead(500).end(),
    );
  });
});
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
  void es.close();
});
