import { randomUUID } from 'node:crypto';
import { createPgSqlClient } from '@vigil/control-plane';
import { createElasticsearchClient } from '@vigil/search';
import { EXIT_FAILED, EXIT_OK, runCli } from './cli';

async function vigil(env: Record<string, string | undefined>, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env,
  });
  return { code, stdout, stderr };
}

async function tablesOf(databaseUrl: string): Promise<string[]> {
  const sql = createPgSqlClient(databaseUrl, 1);
  try {
    const result = await sql.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    return result.rows.map((r) => r.table_name);
  } finally {
    await sql.close();
  }
}

describe('vigil migrate (CLI)', () => {
  const databaseUrl = process.env.DATABASE_URL!;

  it('creates the control plane and the SQL read models, then finds nothing left to do', async () => {
    const first = await vigil({ DATABASE_URL: databaseUrl }, 'migrate');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(EXIT_OK);
    expect(first.stdout).toMatch(/^control plane: applied \d+ migration\(s\): 0001_/m);
    expect(first.stdout).toMatch(/^SQL read models: applied \d+ migration\(s\): 0001_read_model/m);
    expect(await tablesOf(databaseUrl)).toEqual(
      expect.arrayContaining(['schema_migrations', 'api_tokens', 'read_model_events']),
    );

    const again = await vigil({ DATABASE_URL: databaseUrl }, 'migrate');
    expect(again.code).toBe(EXIT_OK);
    expect(again.stdout).toBe(
      'control plane: schema already up to date.\nSQL read models: schema already up to date.\n',
    );
  });

  it('with Elasticsearch, installs the read models there instead of in SQL', async () => {
    const prefix = `${process.env.VIGIL_INDEX_PREFIX ?? 'test-'}migrate-${randomUUID().slice(0, 8)}-`;
    const env = {
      DATABASE_URL: databaseUrl,
      ELASTICSEARCH_URL: process.env.ELASTICSEARCH_URL,
      VIGIL_INDEX_PREFIX: prefix,
    };
    const es = createElasticsearchClient(process.env.ELASTICSEARCH_URL!);
    try {
      const run = await vigil(env, 'migrate');
      expect(run.stderr).toBe('');
      expect(run.code).toBe(EXIT_OK);
      expect(run.stdout).toContain(
        'Elasticsearch read models: index templates and indices in place.',
      );
      expect(await es.indices.existsAlias({ name: `${prefix}events` })).toBe(true);
      expect(await es.indices.existsAlias({ name: `${prefix}investigations` })).toBe(true);

      expect((await vigil(env, 'migrate')).code).toBe(EXIT_OK);
    } finally {
      await es.indices.delete({ index: `${prefix}*`, ignore_unavailable: true });
      await es.indices.deleteIndexTemplate({ name: `${prefix}*` }).catch(() => undefined);
      await es.close();
    }
  });

  it('names an unreachable database and fails', async () => {
    const down = await vigil({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/vigil' }, 'migrate');
    expect(down.code).toBe(EXIT_FAILED);
    expect(down.stderr).toContain('Cannot reach the database');
  });
});
