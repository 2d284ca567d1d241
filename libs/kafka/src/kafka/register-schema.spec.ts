import { canonicalJson, registerSchema } from './register-schema';
import {
  RegistryResponseError,
  type SubjectRegistry,
  type SubjectVersion,
} from './schema-registry-subjects';

const SCHEMA = {
  type: 'record',
  name: 'DetectionEvent',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'risk_score', type: 'double' },
  ],
};

/** A registry in memory that records every write, and can fail the next calls on demand. */
class FakeRegistry implements SubjectRegistry {
  versions: SubjectVersion[] = [];
  level: string | null = null;
  readonly writes: string[] = [];
  /** Errors thrown by the next calls of a method, first in first out. */
  readonly failures: Record<string, Error[]> = {};
  /** Runs just before register() writes: another instance acting in between. */
  beforeRegister: () => void = () => undefined;

  async latest(): Promise<SubjectVersion | null> {
    this.failNext('latest');
    return this.versions.at(-1) ?? null;
  }

  async compatibility(): Promise<string | null> {
    this.failNext('compatibility');
    return this.level;
  }

  async setCompatibility(_subject: string, level: string): Promise<void> {
    this.failNext('setCompatibility');
    this.writes.push(`compatibility ${level}`);
    this.level = level;
  }

  async register(_subject: string, schema: string): Promise<number> {
    this.beforeRegister();
    this.failNext('register');
    this.writes.push(`register ${schema}`);
    const id = 100 + this.versions.length;
    this.versions.push({ id, version: this.versions.length + 1, schema });
    return id;
  }

  private failNext(method: string): void {
    const error = this.failures[method]?.shift();
    if (error !== undefined) throw error;
  }
}

const quick = { startingDelayMs: 1, maxDelayMs: 2, firstRegistrationSpreadMs: 0 };
const conflict = () => new RegistryResponseError(409, 409, 'already exists');

describe('registerSchema', () => {
  it('uses the latest version when it is the same schema, however formatted, and writes nothing', async () => {
    const registry = new FakeRegistry();
    registry.level = 'BACKWARD';
    const reordered = { fields: SCHEMA.fields, name: SCHEMA.name, type: SCHEMA.type };
    registry.versions = [{ id: 7, version: 1, schema: JSON.stringify(reordered, null, 2) }];
    expect(await registerSchema(registry, 's-value', SCHEMA, quick)).toBe(7);
    expect(registry.writes).toEqual([]);
  });

  it('sets BACKWARD before the first version of a subject, then registers it', async () => {
    const registry = new FakeRegistry();
    registry.level = 'NONE';
    expect(await registerSchema(registry, 's-value', SCHEMA, quick)).toBe(100);
    expect(registry.writes).toEqual([
      'compatibility BACKWARD',
      `register ${JSON.stringify(SCHEMA)}`,
    ]);
  });

  it('keeps a stricter compatibility an operator set', async () => {
    const registry = new FakeRegistry();
    registry.level = 'FULL_TRANSITIVE';
    await registerSchema(registry, 's-value', SCHEMA, quick);
    expect(registry.writes).toEqual([`register ${JSON.stringify(SCHEMA)}`]);
  });

  it('registers a changed schema as the next version', async () => {
    const registry = new FakeRegistry();
    registry.level = 'BACKWARD';
    registry.versions = [{ id: 7, version: 1, schema: JSON.stringify({ ...SCHEMA, fields: [] }) }];
    expect(await registerSchema(registry, 's-value', SCHEMA, quick)).toBe(101);
  });

  it('takes the version another instance registered first, after its own attempt met a 409', async () => {
    const registry = new FakeRegistry();
    registry.level = 'BACKWARD';
    registry.beforeRegister = () => {
      registry.beforeRegister = () => undefined;
      registry.versions.push({ id: 42, version: 1, schema: JSON.stringify(SCHEMA) });
      registry.failures.register = [conflict()];
    };
    expect(await registerSchema(registry, 's-value', SCHEMA, quick)).toBe(42);
    expect(registry.versions).toHaveLength(1);
  });

  it('retries when another instance created the compatibility rule at the same moment', async () => {
    const registry = new FakeRegistry();
    registry.failures.setCompatibility = [new RegistryResponseError(409, 0, 'rule exists')];
    expect(await registerSchema(registry, 's-value', SCHEMA, quick)).toBe(100);
    expect(registry.level).toBe('BACKWARD');
  });

  it('waits out a registry that is not reachable yet or answers 5xx', async () => {
    const registry = new FakeRegistry();
    registry.failures.latest = [
      new TypeError('fetch failed'),
      new RegistryResponseError(503, undefined, 'starting'),
    ];
    expect(await registerSchema(registry, 's-value', SCHEMA, quick)).toBe(100);
  });

  it('fails with the registry’s reason when the schema is refused every time', async () => {
    const registry = new FakeRegistry();
    const refusal = new RegistryResponseError(409, 409, 'Incompatible artifact');
    registry.failures.register = [refusal, refusal, refusal, refusal, refusal];
    await expect(
      registerSchema(registry, 's-value', SCHEMA, { ...quick, conflictAttempts: 3 }),
    ).rejects.toThrow('Incompatible artifact');
    expect(registry.failures.register).toHaveLength(2);
  });

  it('fails at once on a refusal that retrying cannot change', async () => {
    const registry = new FakeRegistry();
    registry.failures.register = [new RegistryResponseError(422, 42201, 'Invalid schema')];
    await expect(registerSchema(registry, 's-value', SCHEMA, quick)).rejects.toThrow(
      'Invalid schema',
    );
  });

  it('looks again after a random wait before registering a subject found empty', async () => {
    const registry = new FakeRegistry();
    registry.level = 'BACKWARD';
    const waits: number[] = [];
    const id = await registerSchema(registry, 's-value', SCHEMA, {
      ...quick,
      firstRegistrationSpreadMs: 200,
      random: () => 0.5,
      sleep: async (ms) => {
        waits.push(ms);
        // Meanwhile, another instance registers it.
        registry.versions.push({ id: 9, version: 1, schema: JSON.stringify(SCHEMA) });
      },
    });
    expect(waits).toEqual([100]);
    expect(id).toBe(9);
    expect(registry.writes).toEqual([]);
  });
});

describe('canonicalJson', () => {
  it('is the same for the same value whatever the key order and spacing', () => {
    expect(canonicalJson(JSON.parse('{ "b": [1, {"y": 2, "x": 1}], "a": null }'))).toBe(
      '{"a":null,"b":[1,{"x":1,"y":2}]}',
    );
  });

  it('keeps the order of arrays, which is the order of Avro fields', () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });
});
