import { type Command } from 'commander';
import { loadConfig } from '@vigil/config';
import { openSqlClient, runMigrations } from '@vigil/control-plane';
import {
  IndexNames,
  SQL_READ_MODEL_LEDGER,
  createElasticsearchClient,
  ensureReadModels,
  sqlReadModelMigrations,
} from '@vigil/search';
import type { CliIo } from './cli-io';

/**
 * `vigil migrate`: brings the control plane's schema and the read models up to date, then
 * exits. A deployment runs it once before the apps roll out (a Kubernetes Job, a compose
 * one-shot service); the apps run the same idempotent steps at start-up, so whichever comes
 * first applies them and the others find them done.
 */
export function registerMigrateCommand(program: Command, io: CliIo): void {
  program
    .command('migrate')
    .description(
      'Apply the database migrations and create the read models (Elasticsearch index ' +
        'templates and indices, or the SQL tables without ELASTICSEARCH_URL); safe to run again',
    )
    .action(async () => {
      const config = loadConfig(['database', 'elasticsearch', 'runtime'], io.env);
      const sql = await openSqlClient({
        databaseUrl: config.database.DATABASE_URL,
        poolSize: 2,
        dataDir: config.database.VIGIL_DATA_DIR,
        applicationName: 'vigil-migrate',
      });
      try {
        const controlPlane = await runMigrations(sql);
        io.stdout.write(describe('control plane', controlPlane.applied));
        const elasticsearchUrl = config.elasticsearch.ELASTICSEARCH_URL;
        if (elasticsearchUrl === undefined) {
          const readModels = await runMigrations(sql, {
            migrations: sqlReadModelMigrations,
            ledgerTable: SQL_READ_MODEL_LEDGER,
          });
          io.stdout.write(describe('SQL read models', readModels.applied));
        } else {
          const es = createElasticsearchClient(elasticsearchUrl);
          try {
            const names = new IndexNames(config.elasticsearch.VIGIL_INDEX_PREFIX);
            await ensureReadModels(es, names);
          } finally {
            await es.close();
          }
          io.stdout.write('Elasticsearch read models: index templates and indices in place.\n');
        }
      } finally {
        await sql.close();
      }
    });
}

function describe(what: string, applied: readonly string[]): string {
  return applied.length === 0
    ? `${what}: schema already up to date.\n`
    : `${what}: applied ${applied.length} migration(s): ${applied.join(', ')}.\n`;
}
