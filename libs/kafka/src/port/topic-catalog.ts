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
    const dlqs = [this.detectionEvents, this.investigations, this.notificationCommands].map(
      (name) => ({ name: dlqTopicOf(name), partitions: 1, compacted: false }),
    );
    return [...main, ...dlqs];
  }
}
