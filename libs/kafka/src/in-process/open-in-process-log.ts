import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { claimDataFolder, type Logger } from '@vigil/config';
import type { ReadinessCheck } from '@vigil/ops';
import type { BatchConsumer, DecodedBatchConsumerSpec } from '../port/batch-consumer';
import type { ContractRecordPublisher } from '../port/contract-record-publisher';
import type { MessageLog } from '../port/message-log';
import type { PartitionLag } from '../port/partition-lag';
import type { PartitionProcessor, PartitionProcessorSpec } from '../port/partition-processor';
import type { TopicCatalog, TopicSpec } from '../port/topic-catalog';
import { InProcessBatchConsumer } from './in-process-batch-consumer';
import { InProcessContractPublisher } from './in-process-contract-publisher';
import { InProcessGroupLock } from './in-process-group-lock';
import { InProcessTransactionalProcessor } from './in-process-transactional-processor';
import { LocalAvroCodec } from './local-avro-codec';
import { PartitionedLog, type PartitionedLogOptions } from './partitioned-log';

export type InProcessLogOptions = Omit<PartitionedLogOptions, 'dataDir'> & {
  /** How often retention and compaction run besides segment rolls (default 5 min). */
  retentionCheckMs?: number;
};

interface SharedLog {
  log: PartitionedLog;
  codec: LocalAvroCodec;
  groups: InProcessGroupLock;
  users: number;
  retention: NodeJS.Timeout;
  releaseFolder: () => void;
}

/** One log per data folder in the process, shared by every app started in it. */
const openLogs = new Map<string, SharedLog>();

/**
 * Opens the in-process log of `dataDir` (created if missing), or joins the one this process
 * already opened there. Each call returns its own handle; the files close with the last one.
 * Options apply when the folder is first opened.
 */
export function openInProcessLog(
  dataDir: string,
  logger: Logger,
  options: InProcessLogOptions = {},
): MessageLog {
  const dir = resolve(dataDir);
  let shared = openLogs.get(dir);
  if (!shared) {
    // One process per folder: a second one would corrupt the first one's segments.
    const releaseFolder = claimDataFolder(dir);
    mkdirSync(dir, { recursive: true });
    let log: PartitionedLog;
    try {
      log = PartitionedLog.open({ ...options, dataDir: dir });
    } catch (error) {
      releaseFolder();
      throw error;
    }
    const retention = setInterval(
      () => {
        try {
          log.enforceRetention();
        } catch (error) {
          logger.warn({ err: error }, 'log retention failed');
        }
      },
      options.retentionCheckMs ?? 5 * 60_000,
    );
    retention.unref();
    shared = {
      log,
      codec: new LocalAvroCodec(dir),
      groups: new InProcessGroupLock(),
      users: 0,
      retention,
      releaseFolder,
    };
    openLogs.set(dir, shared);
    logger.info({ dataDir: dir }, 'in-process log opened');
  }
  shared.users += 1;
  return new InProcessMessageLog(dir, shared);
}

/** A handle on a shared in-process log (MessageLog port). */
class InProcessMessageLog implements MessageLog {
  readonly kind = 'in-process' as const;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly shared: SharedLog,
  ) {}

  get codec(): LocalAvroCodec {
    return this.shared.codec;
  }

  async ensureTopics(topics: readonly TopicSpec[]): Promise<string[]> {
    return topics.filter((spec) => this.shared.log.ensureTopic(spec)).map((spec) => spec.name);
  }

  createContractPublisher(topics: TopicCatalog): ContractRecordPublisher {
    return new InProcessContractPublisher(this.shared.log, this.shared.codec, topics);
  }

  createDecodedBatchConsumer(spec: DecodedBatchConsumerSpec): BatchConsumer {
    return new InProcessBatchConsumer(this.shared.log, this.shared.codec, this.shared.groups, spec);
  }

  createTransactionalProcessor(spec: PartitionProcessorSpec): PartitionProcessor {
    return new InProcessTransactionalProcessor(
      this.shared.log,
      this.shared.codec,
      this.shared.groups,
      spec,
    );
  }

  async consumerLag(groupId: string, topics: readonly string[]): Promise<PartitionLag[]> {
    const { log } = this.shared;
    const lags: PartitionLag[] = [];
    for (const topic of topics) {
      if (!log.hasTopic(topic)) continue;
      for (let partition = 0; partition < log.partitionCount(topic); partition++) {
        const start = log.startOffset(topic, partition);
        const position = Math.max(log.committedOffset(groupId, topic, partition) ?? start, start);
        lags.push({
          topic,
          partition,
          lag: Math.max(0, log.endOffset(topic, partition) - position),
        });
      }
    }
    return lags;
  }

  readinessChecks(): ReadinessCheck[] {
    return [
      {
        dependency: 'in-process-log',
        check: async () => {
          if (this.closed || this.shared.log.isClosed) throw new Error('the log is closed');
        },
      },
    ];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.shared.users -= 1;
    if (this.shared.users > 0) return;
    clearInterval(this.shared.retention);
    openLogs.delete(this.dir);
    this.shared.log.close();
    this.shared.releaseFolder();
  }
}
