import { parseDetectionEventFast } from '@vigil/contracts';
import type {
  ChangelogEntries,
  DecodedRecord,
  OutputRecord,
  PartitionHandler,
  ProcessedBatch,
  Punctuation,
} from '@vigil/kafka';
import {
  DEFAULT_DETECTION_STATE_OPTIONS,
  applyEvents,
  decide,
  nextWakeUp,
  type DetectionEvent,
  type DetectionState,
  type DetectionStateOptions,
} from '@vigil/notification-policy';
import { detectionCommandsRecord } from './command-records';
import { describeProblems } from './describe-problems';
import {
  detectionStateRecords,
  restoreDetectionStates,
  unsealedWindowIds,
  WINDOW_SEGMENT_IDS,
  type WindowReseal,
} from './detection-state-records';
import {
  HashedEventIdWindow,
  randomEventIdHashSeed,
  type EventIdHashSeed,
} from './hashed-event-id-window';
import type { ProcessorTopics } from './processor-topics';
import { DecisionTally, type DecisionCounter } from './decision-tally';
import type { SettingsLookup } from './settings-lookup';
import { toDetectionEvent } from './to-detection-event';

export interface DetectionPartitionOptions {
  topics: ProcessorTopics;
  partition: number;
  settings: SettingsLookup;
  stateOptions?: Partial<DetectionStateOptions>;
  /** Told when the partition is revoked, so whoever fans settings changes out forgets it. */
  onClose?: (partition: DetectionPartition) => void;
  /** Told the decisions of each committed batch or punctuation, by mode and channel. */
  onDecisions?: DecisionCounter;
}

/**
 * One partition of `detections.events.v1`: the state of its detections, and when each must be
 * looked at again without new events (a snooze ending with something to report, a settings
 * change). A micro-batch groups records by detection: each detection's records form one
 * recalculation (DESIGN.md §4).
 */
export class DetectionPartition implements PartitionHandler {
  private readonly states: Map<string, DetectionState>;
  private readonly windowSize: number;
  /** Restored detections whose next write reseals their window (see WindowReseal). */
  private readonly reseals: Map<string, WindowReseal>;
  private readonly wakeUps = new Map<string, number>();
  /**
   * The committed de-duplication window, hashed, of each detection that has sealed a segment:
   * its state keeps as strings only the ids its next state record or segment carries (see
   * unsealedWindowIds). A detection without one (fewer ids than a segment, most of them) has
   * its whole window in its state, which the fold scans: a hashed window's typed arrays cost
   * more than a few ids.
   */
  private readonly windows = new Map<string, HashedEventIdWindow>();
  private readonly seed: EventIdHashSeed = randomEventIdHashSeed();
  private recheck: Set<string> | 'all' = new Set();

  constructor(
    private readonly options: DetectionPartitionOptions,
    changelog: ChangelogEntries,
    now: number,
  ) {
    this.windowSize =
      options.stateOptions?.dedupWindowSize ?? DEFAULT_DETECTION_STATE_OPTIONS.dedupWindowSize;
    const restored = restoreDetectionStates(
      changelog,
      this.windowSize,
      WINDOW_SEGMENT_IDS,
      (id, state, reseal) => {
        // A window to be sealed again is written whole by the next write: whole till then.
        const kept = reseal?.rewriteWindow ? state : unsealedWindowIds(state);
        if (kept.recentEventIds.length < state.recentEventIds.length || reseal?.rewriteWindow) {
          this.hashWindow(id, state.recentEventIds);
        }
        return kept;
      },
    );
    this.states = restored.states;
    this.reseals = restored.reseals;
    for (const [id, state] of this.states) this.schedule(id, state, now);
  }

  get size(): number {
    return this.states.size;
  }

  has(detectionId: string): boolean {
    return this.states.has(detectionId);
  }

  /** Settings changed: the affected detections are re-examined at the next punctuation. */
  settingsChanged(detectionId: string | null): void {
    if (detectionId === null) this.recheck = 'all';
    else if (this.recheck !== 'all' && this.states.has(detectionId)) this.recheck.add(detectionId);
  }

  process(records: DecodedRecord[], now: number): ProcessedBatch {
    const rejected: ProcessedBatch['rejected'] = [];
    const byDetection = new Map<string, DetectionEvent[]>();
    for (const record of records) {
      const parsed = parseDetectionEventFast(record.value, now);
      if (!parsed.ok) {
        rejected.push({
          record,
          reason: describeProblems('detection event', parsed.errors),
          reasonClass: 'validation',
        });
        continue;
      }
      // State lives on the partition of its key: a record keyed otherwise would split it.
      if (record.key?.toString('utf8') !== parsed.value.detection_id) {
        rejected.push({
          record,
          reason: 'record key is not the detection_id',
          reasonClass: 'validation',
        });
        continue;
      }
      const events = byDetection.get(parsed.value.detection_id) ?? [];
      events.push(toDetectionEvent(parsed.value));
      byDetection.set(parsed.value.detection_id, events);
    }

    const outputs: OutputRecord[] = [];
    const staged = new Map<string, DetectionState>();
    const added = new Map<string, number>();
    const tally = new DecisionTally();
    for (const [detectionId, events] of byDetection) {
      const previous = this.states.get(detectionId);
      const windowIds = previous && this.windows.get(detectionId);
      const applied = applyEvents(previous, events, now, this.options.stateOptions, windowIds);
      // A resend of known events changes nothing and sends nothing.
      if (applied.added === 0) continue;
      added.set(detectionId, applied.added);
      const { settings } = this.options.settings.effective(detectionId);
      const { state, decisions } = decide(applied.state, settings, now);
      if (decisions.length > 0) {
        outputs.push(detectionCommandsRecord(this.options.topics, detectionId, decisions, now));
        tally.add(settings.frequency, decisions);
      }
      outputs.push(...this.stateRecords(previous?.count ?? 0, state));
      staged.set(detectionId, state);
    }
    return {
      outputs,
      rejected,
      commit: () => {
        this.adopt(staged, now, added);
        tally.reportTo(this.options.onDecisions);
      },
    };
  }

  close(): void {
    this.options.onClose?.(this);
  }

  punctuate(now: number): Punctuation | null {
    const recheck = this.recheck;
    this.recheck = new Set();
    const ids = recheck === 'all' ? [...this.states.keys()] : [...recheck];
    for (const id of ids) this.schedule(id, this.states.get(id), now);

    const outputs: OutputRecord[] = [];
    const staged = new Map<string, DetectionState>();
    const tally = new DecisionTally();
    for (const [detectionId, at] of this.wakeUps) {
      if (at > now) continue;
      const current = this.states.get(detectionId);
      if (!current) continue;
      const { settings } = this.options.settings.effective(detectionId);
      const { state, decisions } = decide(current, settings, now);
      if (decisions.length === 0) continue;
      outputs.push(detectionCommandsRecord(this.options.topics, detectionId, decisions, now));
      outputs.push(...this.stateRecords(current.count, state));
      staged.set(detectionId, state);
      tally.add(settings.frequency, decisions);
    }
    for (const [detectionId, at] of this.wakeUps) {
      // Due but nothing to send (e.g. the settings changed again): re-plan it.
      if (at <= now && !staged.has(detectionId)) {
        this.schedule(detectionId, this.states.get(detectionId), now);
      }
    }
    if (outputs.length === 0) return null;
    return {
      outputs,
      commit: () => {
        this.adopt(staged, now);
        tally.reportTo(this.options.onDecisions);
      },
    };
  }

  private stateRecords(previousCount: number, state: DetectionState): OutputRecord[] {
    const { topics, partition } = this.options;
    const reseal = this.reseals.get(state.detectionId);
    return detectionStateRecords(topics, partition, previousCount, state, this.windowSize, reseal);
  }

  private adopt(
    staged: Map<string, DetectionState>,
    now: number,
    added: ReadonlyMap<string, number> = new Map(),
  ): void {
    for (const [detectionId, state] of staged) {
      const ids = state.recentEventIds;
      const kept = unsealedWindowIds(state);
      const window = this.windows.get(detectionId);
      const newIds = Math.min(added.get(detectionId) ?? 0, ids.length);
      if (window) {
        if (newIds > 0) window.append(ids.slice(ids.length - newIds));
      } else if (kept.recentEventIds.length < ids.length) {
        // Its first sealed segment: the ids the state held were its whole window.
        this.hashWindow(detectionId, ids);
      }
      this.states.set(detectionId, kept);
      this.reseals.delete(detectionId);
      this.schedule(detectionId, state, now);
    }
  }

  private hashWindow(detectionId: string, wholeWindow: readonly string[]): void {
    const window = new HashedEventIdWindow(this.windowSize, this.seed);
    window.append(wholeWindow);
    this.windows.set(detectionId, window);
  }

  private schedule(detectionId: string, state: DetectionState | undefined, now: number): void {
    const at = state
      ? nextWakeUp(state, this.options.settings.effective(detectionId).settings, now)
      : null;
    if (at === null) this.wakeUps.delete(detectionId);
    else this.wakeUps.set(detectionId, at);
  }
}
