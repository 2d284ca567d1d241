import { backOff } from 'exponential-backoff';
import { RegistryResponseError, type SubjectRegistry } from './schema-registry-subjects';

/** Levels that hold a new version to at least what BACKWARD asks; any other is raised to it. */
const AT_LEAST_BACKWARD = new Set(['BACKWARD', 'BACKWARD_TRANSITIVE', 'FULL', 'FULL_TRANSITIVE']);

export interface RegisterSchemaOptions {
  /** Attempts in all, for a registry that is unreachable or answers 5xx (default 10). */
  readonly attempts?: number;
  /** Attempts after a 409, the registry's answer to a concurrent first registration (default 4). */
  readonly conflictAttempts?: number;
  /** First delay between attempts; it doubles up to `maxDelayMs`, with full jitter. */
  readonly startingDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Longest wait before registering a subject found empty, so instances starting together
   * mostly find the first one's version instead of racing it (default 250 ms). */
  readonly firstRegistrationSpreadMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/**
 * Registers `schema` under `subject` so that any number of instances of any app may do it at
 * the same moment, in no order, on a fresh registry:
 *
 * - check first: when the subject's latest version is this schema (same JSON, whatever its
 *   formatting), its id is used and nothing is written;
 * - a subject with no version yet is registered after a short random wait and a second look,
 *   so instances starting together rarely race at all (when two still register in the same
 *   instant, Apicurio may list the schema as two versions; both carry the one schema id);
 * - the subject's compatibility is set to BACKWARD (DESIGN.md §3) before the first version
 *   exists, never left to the registry's global default; a stricter level set by an operator
 *   is kept;
 * - a 409 (another instance created the subject or its compatibility rule between our read
 *   and our write) and an unreachable or failing registry are retried with backoff, reading
 *   again each time. A schema the subject's compatibility refuses still fails, after a few
 *   attempts, with the registry's reason.
 */
export async function registerSchema(
  registry: SubjectRegistry,
  subject: string,
  schema: object,
  options: RegisterSchemaOptions = {},
): Promise<number> {
  const attempts = options.attempts ?? 10;
  const conflictAttempts = options.conflictAttempts ?? 4;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  const spreadMs = options.firstRegistrationSpreadMs ?? 250;
  const text = JSON.stringify(schema);
  const wanted = canonicalJson(schema);
  let conflicts = 0;
  let firstLook = true;

  const attempt = async (): Promise<number> => {
    let latest = await registry.latest(subject);
    if (latest === null && firstLook && spreadMs > 0) {
      firstLook = false;
      await sleep(random() * spreadMs);
      latest = await registry.latest(subject);
    }
    const registered = latest !== null && canonicalJsonOf(latest.schema) === wanted;
    await ensureAtLeastBackward(registry, subject);
    return registered ? latest!.id : registry.register(subject, text);
  };

  return backOff(attempt, {
    numOfAttempts: attempts,
    startingDelay: options.startingDelayMs ?? 100,
    maxDelay: options.maxDelayMs ?? 2_000,
    jitter: 'full',
    retry: (error: unknown) => {
      if (isConflict(error)) return ++conflicts < conflictAttempts;
      return isTransient(error);
    },
  });
}

async function ensureAtLeastBackward(registry: SubjectRegistry, subject: string): Promise<void> {
  const level = await registry.compatibility(subject);
  if (level !== null && AT_LEAST_BACKWARD.has(level.toUpperCase())) return;
  await registry.setCompatibility(subject, 'BACKWARD');
}

function isConflict(error: unknown): boolean {
  return error instanceof RegistryResponseError && error.status === 409;
}

/** No answer at all (fetch rejects with a TypeError, or the timeout aborts), or a 5xx. */
function isTransient(error: unknown): boolean {
  if (error instanceof RegistryResponseError) return error.status >= 500;
  return error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError');
}

/** JSON with object keys sorted: the same schema however it was formatted or ordered. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function canonicalJsonOf(text: string): string | undefined {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return undefined;
  }
}
