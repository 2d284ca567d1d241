/** A registered version of a subject, as the registry's REST API returns it. */
export interface SubjectVersion {
  readonly id: number;
  readonly version: number;
  /** The schema as JSON text, formatted however it was registered. */
  readonly schema: string;
}

/**
 * What registering a schema needs of the registry (Confluent REST API, also served by Apicurio
 * and Karapace): read a subject's latest version and compatibility, set the compatibility,
 * register a version.
 */
export interface SubjectRegistry {
  /** The subject's latest version, or null when the subject has none. */
  latest(subject: string): Promise<SubjectVersion | null>;
  /** The compatibility level in force for the subject (its own or the global one), or null. */
  compatibility(subject: string): Promise<string | null>;
  setCompatibility(subject: string, level: string): Promise<void>;
  /** Registers `schema` (JSON text) under the subject; resolves to its schema id. */
  register(subject: string, schema: string): Promise<number>;
}

/** A refusal of the registry: its HTTP status, its own error code and message. */
export class RegistryResponseError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'RegistryResponseError';
  }
}

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

/** SubjectRegistry over HTTP. Network failures reject as fetch rejects (a TypeError). */
export class SchemaRegistrySubjects implements SubjectRegistry {
  private readonly base: string;

  constructor(registryUrl: string) {
    this.base = registryUrl.replace(/\/+$/, '');
  }

  async latest(subject: string): Promise<SubjectVersion | null> {
    const body = await this.call<SubjectVersion>(
      'GET',
      this.subjectPath(subject, '/versions/latest'),
    );
    return body === null ? null : { id: body.id, version: body.version, schema: body.schema };
  }

  async compatibility(subject: string): Promise<string | null> {
    const body = await this.call<{ compatibilityLevel?: string; compatibility?: string }>(
      'GET',
      `/config/${encodeURIComponent(subject)}`,
    );
    return body?.compatibilityLevel ?? body?.compatibility ?? null;
  }

  async setCompatibility(subject: string, level: string): Promise<void> {
    await this.call('PUT', `/config/${encodeURIComponent(subject)}`, { compatibility: level });
  }

  async register(subject: string, schema: string): Promise<number> {
    const body = await this.call<{ id: number }>('POST', this.subjectPath(subject, '/versions'), {
      schema,
    });
    if (body === null) throw new RegistryResponseError(404, undefined, `no subject ${subject}`);
    return body.id;
  }

  private subjectPath(subject: string, rest: string): string {
    return `/subjects/${encodeURIComponent(subject)}${rest}`;
  }

  /** The parsed answer; null for a 404 (no such subject or version). */
  private async call<T>(method: string, path: string, body?: object): Promise<T | null> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { accept: CONTENT_TYPE, ...(body ? { 'content-type': CONTENT_TYPE } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (response.status === 404) return null;
    if (!response.ok) {
      const parsed = parseJson(text) as { error_code?: number; message?: string } | undefined;
      throw new RegistryResponseError(
        response.status,
        parsed?.error_code,
        `schema registry ${method} ${path}: ${response.status} ${parsed?.message ?? text.slice(0, 200)}`,
      );
    }
    return parseJson(text) as T;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
