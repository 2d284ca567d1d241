import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';
import type { ContractCodec } from '../port/contract-codec';
import type { ContractRecordPublisher } from '../port/contract-record-publisher';
import type { TopicCatalog } from '../port/topic-catalog';
import type { PartitionedLog } from './partitioned-log';

/** ContractPublisher over the in-process log: same keys, same bytes; a publish is one durable write. */
export class InProcessContractPublisher implements ContractRecordPublisher {
  constructor(
    private readonly log: PartitionedLog,
    private readonly codec: ContractCodec,
    private readonly topics: TopicCatalog,
  ) {}

  async connect(): Promise<void> {}

  async disconnect(): Promise<void> {}

  async publishDetectionEvents(events: readonly DetectionEventRecord[]): Promise<void> {
    const topic = this.topics.detectionEvents;
    const records = await Promise.all(
      events.map(async (e) => ({
        topic,
        key: e.detection_id,
        value: await this.codec.encode(topic, e),
      })),
    );
    this.log.write(records);
  }

  async publishInvestigations(reports: readonly InvestigationRecord[]): Promise<void> {
    const topic = this.topics.investigations;
    const records = await Promise.all(
      reports.map(async (r) => ({ topic, key: r.id, value: await this.codec.encode(topic, r) })),
    );
    this.log.write(records);
  }
}
