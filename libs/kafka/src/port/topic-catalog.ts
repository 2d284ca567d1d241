import { Topics, dlqTopicOf } from '@vigil/contracts';

const LARGE_RECORDS = 16 * 1024 * 1024;

export interface TopicSpec {
  name: string;
  partitions: number;
  compacted: boolean;
  /** Largest record batch the topic accepts; unset keeps the broker's default (1 MB). */
  maxMessageBytes?: number;
}

/**
 * Resolves the logical topic names of DESIGN.md §3 against a deployment prefix. Every app
 * uses the same catalog so names never drift between producer and consumer.
 */
export class TopicCatalog {
  constructor(
    private readonly prefix: string,
    private readonly partitions: number,
  ) {}

  name(topic: string): string {
    return `${this.prefix}${topic}`;
  }

  get detectionEvents(): string {
    return this.name(Topics.detectionEvents);
  }
  get investigations(): string {
    return this.name(Topics.investigations);
  }
  get notificationCommands(): string {
    return this.name(Topics.notificationCommands);
  }
  get detectionState(): string {
    return this.name(Topics.detectionState);
  }

  /** All topics with their DLQ twins; the state topic is compacted and co-partitioned. */
  all(): TopicSpec[] {
    const p = this.partitions;
    const main: TopicSpec[] = [
      { name: this.detectionEvents, partitions: p, compacted: false },
      { name: this.investigations, partitions: p, compacted: false },
      // A command carries up to Max events per notification summaries, and a detection's state
      // its buffered events: both can pass the broker's 1 MB default.
      {
        name: this.notificationCommands,
        partitions: p,
        compacted: false,
        maxMessageBytes: LARGE_RECORDS,
      },
      { name: this.detectionState, partitions: p, compacted: true, maxMessageBytes: LARGE_RECORDS },
    ];
    // A dead letter carries its record's bytes and more (the reason headers): a DLQ that took
    // less than its topic would refuse the largest records, and the partition could not move on.
    const dlqs = main
      .filter((spec) => !spec.compacted)
      .map((spec) => ({
        name: dlqTopicOf(spec.name),
        partitions: 1,
        compacted: false,
        ...(spec.maxMessageBytes ? { maxMessageBytes: spec.maxMessageBytes } : {}),
      }));
    return [...main, ...dlqs];
  }
}
