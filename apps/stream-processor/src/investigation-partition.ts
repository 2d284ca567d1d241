import { parseInvestigation } from '@vigil/contracts';
import type {
  ChangelogEntries,
  DecodedRecord,
  OutputRecord,
  PartitionHandler,
  ProcessedBatch,
} from '@vigil/kafka';
import { decideInvestigation } from '@vigil/notification-policy';
import { commandRecord } from './command-records';
import { describeProblems } from './describe-problems';
import {
  investigationStateRecord,
  type InvestigationStateValue,
} from './investigation-state-record';
import type { ProcessorTopics } from './processor-topics';
import { DecisionTally, type DecisionCounter } from './decision-tally';
import type { SettingsLookup } from './settings-lookup';
import { isInvestigationStateKey } from '@vigil/contracts';
import { toInvestigationSnapshot } from './to-investigation-snapshot';

export interface InvestigationPartitionOptions {
  topics: ProcessorTopics;
  partition: number;
  settings: SettingsLookup;
  /** Told the decisions of each committed batch; investigations are never batched (immediate). */
  onDecisions?: DecisionCounter;
}

/**
 * One partition of `investigations.v1`: the fingerprint last notified per investigation, so a
 * resend of identical content sends nothing (DESIGN.md §4). Records are taken in offset order.
 */
export class InvestigationPartition implements PartitionHandler {
  private readonly fingerprints = new Map<string, string>();

  constructor(
    private readonly options: InvestigationPartitionOptions,
    changelog: ChangelogEntries,
  ) {
    for (const [key, value] of changelog) {
      if (!isInvestigationStateKey(key)) continue;
      const stored = JSON.parse(value.toString('utf8')) as InvestigationStateValue;
      if (stored.schemaVersion === 1) {
        this.fingerprints.set(stored.investigationId, stored.fingerprint);
      }
    }
  }

  process(records: DecodedRecord[], now: number): ProcessedBatch {
    const rejected: ProcessedBatch['rejected'] = [];
    const outputs: OutputRecord[] = [];
    const staged = new Map<string, string>();
    const tally = new DecisionTally();
    for (const record of records) {
      const parsed = parseInvestigation(record.value);
      if (!parsed.ok) {
        rejected.push({
          record,
          reason: describeProblems('investigation', parsed.errors),
          reasonClass: 'validation',
        });
        continue;
      }
      const investigation = parsed.value;
      if (record.key?.toString('utf8') !== investigation.id) {
        rejected.push({
          record,
          reason: 'record key is not the investigation id',
          reasonClass: 'validation',
        });
        continue;
      }
      const previous =
        staged.get(investigation.id) ?? this.fingerprints.get(investigation.id) ?? null;
      const { settings } = this.options.settings.effective(investigation.detection.id);
      const { fingerprint, decisions } = decideInvestigation(
        previous,
        toInvestigationSnapshot(investigation),
        settings,
        now,
      );
      for (const decision of decisions) {
        outputs.push(commandRecord(this.options.topics, investigation.id, decision, now));
      }
      tally.add('immediate', decisions);
      if (fingerprint !== null && fingerprint !== previous) {
        staged.set(investigation.id, fingerprint);
        outputs.push(
          investigationStateRecord(
            this.options.topics,
            this.options.partition,
            investigation.id,
            fingerprint,
          ),
        );
      }
    }
    return {
      outputs,
      rejected,
      commit: () => {
        for (const [id, fingerprint] of staged) this.fingerprints.set(id, fingerprint);
        tally.reportTo(this.options.onDecisions);
      },
    };
  }

  punctuate(): null {
    return null;
  }
}
