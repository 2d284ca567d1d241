/** Thrown by a read model whose backend cannot answer now; the edge maps it to 503. */
export class ReadModelUnavailableError extends Error {
  readonly code = 'backend_unavailable';
  readonly details: { backend: string };
  constructor(backend: string, cause?: unknown) {
    super(`${backend} is unavailable; retry later`, { cause });
    this.name = 'ReadModelUnavailableError';
    this.details = { backend };
  }
}
