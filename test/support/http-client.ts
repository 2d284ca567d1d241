/** A small JSON client for black-box tests: returns status, headers and the parsed body. */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function request<T = any>(
  method: string,
  url: string,
  options: {
    token?: string;
    json?: unknown;
    body?: string;
    contentType?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  if (options.contentType) headers['content-type'] = options.contentType;
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // leave as text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** Polls until `check` returns a value (not undefined) or the deadline passes. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  { timeoutMs = 30_000, intervalMs = 250 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `condition not met within ${timeoutMs} ms${lastError instanceof Error ? `: ${lastError.message}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
