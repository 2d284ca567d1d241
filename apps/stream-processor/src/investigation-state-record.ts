import type { OutputRecord } from '@vigil/kafka';
import type { ProcessorTopics } from './processor-topics';
import { investigationStateKey } from '@vigil/contracts';

/** What the state topic keeps of an investigation: the fingerprint last notified. */
export interface InvestigationStateValue {
  schemaVersion: 1;
  investigationId: string;
  fingerprint: string;
}

export function investigationStateRecord(
  topics: ProcessorTopics,
  partition: number,
  investigationId: string,
  fingerprint: string,
): OutputRecord {
  const value: InvestigationStateValue = { schemaVersion: 1, investigationId, fingerprint };
  return {
    topic: topics.detectionState,
    key: investigationStateKey(investigationId),
    value: Buffer.from(JSON.stringify(value), 'utf8'),
    partition,
  };
}
