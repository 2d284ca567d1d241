/**
 * The processor's floor (ProcessorFloor) run as a process of its own, in the stream processor's
 * place in `bench:pipeline`: it reads the records the processor wrote in an earlier pass (topics
 * under FLOOR_SOURCE_PREFIX), then consumes the events of its own pass (VIGIL_TOPIC_PREFIX) as
 * the processor does, writing each batch's share of those records to its own pass's topics, so
 * the indexer reads and indexes the same state records. Serves `/livez` once the records are
 * loaded and `/metrics` with the events consumed, as the processor's ops listener does.
 *
 * With FLOOR_OUTPUT=none it writes no record, only each batch's offsets in its transaction: the
 * floor of exactly-once consumption alone, under any processor whatever it writes. With
 * FLOOR_OUTPUT=commands it writes the processor's command records and no state record: the
 * floor of any processor that sends these notifications, however little state it keeps (and the
 * indexer, without state records, indexes no detection). With FLOOR_OUTPUT=one-record it writes
 * one record of 8 bytes per transaction to the commands topic: what a transaction with any output
 * costs, whatever its bytes. With
 * FLOOR_COMPRESSION=none it writes the records uncompressed (the processor writes gzip).
 *
 * Environment: KAFKA_BROKERS, SCHEMA_REGISTRY_URL, VIGIL_TOPIC_PREFIX, VIGIL_TOPIC_PARTITIONS,
 * FLOOR_SOURCE_PREFIX, FLOOR_EVENTS (events of the pass), FLOOR_OUTPUT, FLOOR_COMPRESSION, OPS_PORT.
 */
import http from 'node:http';
import { CompressionTypes, Kafka, logLevel } from 'kafkajs';
import { AvroCodec, TopicCatalog, stopRequestQueueSpin } from '@vigil/kafka';
import { ProcessorFloor, processorOutputs, recordsByPartition } from './processor-floor';

const FLOOR_OUTPUTS = ['processor', 'commands', 'one-record', 'none'];

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const partitions = Number(required('VIGIL_TOPIC_PARTITIONS'));
  const sourcePrefix = required('FLOOR_SOURCE_PREFIX');
  const prefix = required('VIGIL_TOPIC_PREFIX');
  const source = new TopicCatalog(sourcePrefix, partitions);
  const topics = new TopicCatalog(prefix, partitions);
  // As the processor's own client: without kafkajs's idle timer loop.
  stopRequestQueueSpin();
  const kafka = new Kafka({
    brokers: required('KAFKA_BROKERS').split(','),
    // A batch that fails is retried by kafkajs; its errors are worth seeing.
    logLevel: logLevel.ERROR,
  });
  const output = process.env.FLOOR_OUTPUT ?? 'processor';
  if (!FLOOR_OUTPUTS.includes(output)) {
    throw new Error(`FLOOR_OUTPUT must be one of ${FLOOR_OUTPUTS.join(', ')}, not ${output}`);
  }
  const records =
    output === 'none' || output === 'one-record'
      ? []
      : (await processorOutputs(kafka, source)).filter(
          (record) => output === 'processor' || record.topic === source.notificationCommands,
        );
  const bytesOf = (topic: string) =>
    records
      .filter((r) => r.topic === topic)
      .reduce((sum, r) => sum + r.key.length + (r.value?.length ?? 0), 0);
  const events = Number(required('FLOOR_EVENTS'));
  console.log(
    `  processor floor writes ${records.length} records: state ` +
      `${(bytesOf(source.detectionState) / events).toFixed(0)} bytes per event, commands ` +
      `${(bytesOf(source.notificationCommands) / events).toFixed(0)} bytes per event`,
  );
  const ownTopic = new Map([
    [source.notificationCommands, topics.notificationCommands],
    [source.detectionState, topics.detectionState],
  ]);
  const groupId = `${prefix}processor-floor`;
  const floor = new ProcessorFloor(kafka, {
    codec: new AvroCodec(required('SCHEMA_REGISTRY_URL')),
    records,
    // The pass before had the same events per partition (the same detections, as many each).
    inputEventsByPartition: await recordsByPartition(kafka, source.detectionEvents),
    compression:
      process.env.FLOOR_COMPRESSION === 'none' ? CompressionTypes.None : CompressionTypes.GZIP,
    topics,
    groupId,
    topicOf: (record) => ownTopic.get(record.topic)!,
    oneRecordTo: output === 'one-record' ? topics.notificationCommands : undefined,
  });
  // The processor's consumer settings (TransactionalProcessor).
  const consumer = kafka.consumer({
    groupId,
    readUncommitted: false,
    maxBytesPerPartition: 4 * 1024 * 1024,
    maxBytes: 16 * 1024 * 1024,
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [topics.detectionEvents], fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    // The processor's default (PROCESSOR_PARTITION_CONCURRENCY).
    partitionsConsumedConcurrently: 6,
    eachBatch: ({ batch }) => floor.handle(batch),
  });

  const server = http.createServer((req, res) => {
    if (req.url === '/metrics') {
      res.end(
        `vigil_consumer_records_total{topic="${topics.detectionEvents}"} ${floor.eventsCommitted}\n`,
      );
    } else res.end('ok');
  });
  server.listen(Number(required('OPS_PORT')), '127.0.0.1');
  process.once('SIGTERM', () => {
    server.close();
    void consumer
      .disconnect()
      .then(() => floor.close())
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
