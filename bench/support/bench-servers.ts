/** Where the benches find the local servers (deploy/local/servers.sh), overridable as the apps'. */
export const BENCH_SERVERS = {
  kafkaBrokers: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  schemaRegistryUrl: process.env.SCHEMA_REGISTRY_URL ?? 'http://127.0.0.1:8081/apis/ccompat/v7',
  elasticsearchUrl: process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200',
  postgresAdminUrl: process.env.POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
} as const;
