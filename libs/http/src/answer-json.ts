import type { ServerResponse } from 'node:http';

/**
 * Answers `body` as JSON, serialised once, without a framework's send path (no ETag: answers to
 * queries are not cached).
 */
export function answerJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}
