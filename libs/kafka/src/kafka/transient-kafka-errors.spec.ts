import pino from 'pino';
import { TransientErrorTally, transientKafkaError } from './transient-kafka-errors';

describe('transientKafkaError', () => {
  it('recognises the broker answers kafkajs retries by themselves', () => {
    expect(
      transientKafkaError({
        message: 'Response AddPartitionsToTxn(key: 24, version: 1)',
        error:
          'The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing',
      }),
    ).toBe('CONCURRENT_TRANSACTIONS');
    expect(transientKafkaError({ message: 'The group is rebalancing, re-joining' })).toBe(
      'REBALANCE_IN_PROGRESS',
    );
    expect(
      transientKafkaError({
        message: 'Failed to send messages: This server is not the leader for that topic-partition',
      }),
    ).toBe('NOT_LEADER_FOR_PARTITION');
  });

  it('leaves every other error alone', () => {
    expect(transientKafkaError({ message: 'Crash: KafkaJSNonRetriableError: boom' })).toBeNull();
    expect(transientKafkaError({ message: 'Connection error', error: 42 })).toBeNull();
  });
});

describe('TransientErrorTally', () => {
  it('logs one warn line per interval with the count of each type', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const tally = new TransientErrorTally(logger, 10_000);
    for (let i = 0; i < 12; i++) tally.add('CONCURRENT_TRANSACTIONS');
    tally.add('REBALANCE_IN_PROGRESS');
    tally.flush();
    tally.flush();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      retried: { CONCURRENT_TRANSACTIONS: 12, REBALANCE_IN_PROGRESS: 1 },
      msg: 'kafka: transient broker errors retried 13 times in the last 10 s',
    });
  });
});
