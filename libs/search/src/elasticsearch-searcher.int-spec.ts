import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@elastic/elasticsearch';
import {
  createElasticsearchClient,
  isElasticsearchUnavailable,
} from './create-elasticsearch-client';
import { ElasticsearchSearchError, ElasticsearchSearcher } from './elasticsearch-searcher';

const url = () => process.env.ELASTICSEARCH_URL!;

describe('ElasticsearchSearcher', () => {
  const index = `${process.env.VIGIL_INDEX_PREFIX}searcher-${Date.now()}`;
  let es: Client;
  let searcher: ElasticsearchSearcher;

  beforeAll(async () => {
    es = createElasticsearchClient(url());
    searcher = new ElasticsearchSearcher(url());
    await es.bulk({
      refresh: true,
      operations: [1, 2, 3].flatMap((n) => [
        { index: { _index: index, _id: `e${n}` } },
        { id: `e${n}`, n },
      ]),
    });
  });

  afterAll(async () => {
    await searcher?.close();
    await es?.indices.delete({ index }).catch(() => undefined);
    await es?.close();
  });

  it('answers what the official client answers', async () => {
    const body = { query: { range: { n: { gte: 2 } } }, sort: [{ n: 'asc' }] };
    const lean = await searcher.search<{ id: string }>(index, body);
    const official = await es.search<{ id: string }>({ index, ...body });
    // How long each search took is the one field that may differ.
    expect({ ...lean, took: 0 }).toEqual({ ...official, took: 0 });
    expect(lean.hits.hits.map((hit) => hit._source)).toEqual(
      official.hits.hits.map((hit) => hit._source),
    );
  });

  it('says what Elasticsearch refused, as an error that retrying will not cure', async () => {
    const refused = await searcher
      .search(index, { query: { no_such_query: {} } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ElasticsearchSearchError);
    expect(refused).toMatchObject({ status: 400, unavailable: false });
    expect((refused as Error).message).toMatch(/no_such_query/);
    expect(isElasticsearchUnavailable(refused)).toBe(false);
  });

  it('reports an Elasticsearch it cannot reach as unavailable', async () => {
    const closed = await listening(createServer());
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = new ElasticsearchSearcher(`http://127.0.0.1:${port}`);
    try {
      const failed = await unreachable.search(index, {}).catch((error: unknown) => error);
      expect(failed).toMatchObject({ status: undefined, unavailable: true });
      expect(isElasticsearchUnavailable(failed)).toBe(true);
    } finally {
      await unreachable.close();
    }
  });

  it('reports 503 from Elasticsearch as unavailable', async () => {
    const busy = await listening(
      createServer((_req, res) => {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"error":{"type":"cluster_block_exception","reason":"blocked"}}');
      }),
    );
    const searcherOfBusy = new ElasticsearchSearcher(urlOf(busy));
    try {
      const failed = await searcherOfBusy.search(index, {}).catch((error: unknown) => error);
      expect(failed).toMatchObject({
        status: 503,
        unavailable: true,
        message: expect.stringMatching(/blocked/),
      });
    } finally {
      await searcherOfBusy.close();
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('sends credentials of the URL as basic authentication, under its path prefix', async () => {
    const seen: { path?: string; headers?: IncomingHttpHeaders } = {};
    const recorder = await listening(
      createServer((req, res) => {
        seen.path = req.url;
        seen.headers = req.headers;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"hits":{"hits":[]}}');
      }),
    );
    const withCredentials = new ElasticsearchSearcher(
      urlOf(recorder).replace('http://', 'http://reader:p%40ss@') + '/es/',
    );
    try {
      expect(await withCredentials.search('events', {})).toEqual({ hits: { hits: [] } });
      expect(seen.path).toBe('/es/events/_search');
      expect(seen.headers?.authorization).toBe(
        `Basic ${Buffer.from('reader:p@ss').toString('base64')}`,
      );
    } finally {
      await withCredentials.close();
      await new Promise((resolve) => recorder.close(resolve));
    }
  });

  it('retries once on a fresh socket when Elasticsearch closed the kept one', async () => {
    let requests = 0;
    const flaky = await listening(
      createServer((req, res) => {
        requests += 1;
        // The first search finds its socket closed, as after an idle timeout on the far side.
        if (requests === 1) {
          req.socket.destroy();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"hits":{"hits":[]}}');
      }),
    );
    const retrying = new ElasticsearchSearcher(urlOf(flaky));
    try {
      expect(await retrying.search('events', {})).toEqual({ hits: { hits: [] } });
      expect(requests).toBe(2);
    } finally {
      await retrying.close();
      await new Promise((resolve) => flaky.close(resolve));
    }
  });
});

async function listening(server: Server): Promise<Server> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function urlOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
