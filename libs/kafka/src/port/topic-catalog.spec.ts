import { dlqTopicOf } from '@vigil/contracts';
import { TopicCatalog } from './topic-catalog';

describe('TopicCatalog', () => {
  const topics = new TopicCatalog('acme.', 6);

  it('lists every topic once, the DLQ twins of the three record topics included', () => {
    const names = topics.all().map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([
      topics.detectionEvents,
      topics.investigations,
      topics.notificationCommands,
      topics.detectionState,
      dlqTopicOf(topics.detectionEvents),
      dlqTopicOf(topics.investigations),
      dlqTopicOf(topics.notificationCommands),
    ]);
  });

  it('gives each DLQ the record size its topic takes, so the largest records can be dead-lettered', () => {
    const specs = new Map(topics.all().map((t) => [t.name, t]));
    for (const source of [
      topics.detectionEvents,
      topics.investigations,
      topics.notificationCommands,
    ]) {
      const dlq = specs.get(dlqTopicOf(source))!;
      expect(dlq).toMatchObject({ partitions: 1, compacted: false });
      expect(dlq.maxMessageBytes).toBe(specs.get(source)!.maxMessageBytes);
    }
    expect(specs.get(dlqTopicOf(topics.notificationCommands))!.maxMessageBytes).toBe(
      16 * 1024 * 1024,
    );
  });
});
