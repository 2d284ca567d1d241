import { compileToElasticsearch, parseQuery } from '@vigil/query-language';

/** The search every side of bench:query runs: what the read model sends for the default page. */
export function searchRequest(index: string, text: string) {
  return {
    index,
    query: { bool: { filter: [compileToElasticsearch(parseQuery(text))] } },
    sort: [{ happened: { order: 'desc' as const } }, { id: { order: 'asc' as const } }],
    size: 101,
    track_total_hits: false,
  };
}
