import { parseDetectionEventFast, type DetectionEventRecord } from '@vigil/contracts';

/**
 * The least work any processor writing Vigil's output must do per batch, run on top of the
 * floor (ProcessorFloor's `work`): check each decoded event (the product's own fast check: bad
 * records go to the DLQ with a reason), group the batch by detection, drop ids the detection has
 * already seen, count its events and distinct users, and serialise, per changed detection, a
 * command carrying the new events' summaries and the users, and a state record carrying the
 * count and the new ids. Less than the processor does on every count: an unbounded set per
 * detection instead of a bounded window, no settings, no decisions, no per-channel state, no
 * buffered events, no restore. Its records are built and dropped: the floor writes the
 * processor's own, so the two differ only by this work.
 */
export class MinimalDetectionWork {
  private readonly seen = new Map<string, Set<string>>();
  private readonly counts = new Map<string, number>();
  private readonly users = new Map<string, Map<string, string>>();
  /** Bytes serialised so far: the work's result, so none of it is optimised away. */
  bytes = 0;

  /** One batch: its records' keys, and their values as decoded, in the same order. */
  apply(records: readonly { key: Buffer | null }[], values: readonly unknown[]): void {
    const now = Date.now();
    const byDetection = new Map<string, DetectionEventRecord[]>();
    for (let i = 0; i < values.length; i++) {
      const parsed = parseDetectionEventFast(values[i], now);
      if (!parsed.ok) continue;
      const event = parsed.value;
      if (records[i].key?.toString('utf8') !== event.detection_id) continue;
      const events = byDetection.get(event.detection_id);
      if (events) events.push(event);
      else byDetection.set(event.detection_id, [event]);
    }
    for (const [detectionId, events] of byDetection) {
      let seen = this.seen.get(detectionId);
      if (!seen) this.seen.set(detectionId, (seen = new Set()));
      let users = this.users.get(detectionId);
      if (!users) this.users.set(detectionId, (users = new Map()));
      const fresh: DetectionEventRecord[] = [];
      for (const event of events) {
        if (seen.has(event.id)) continue;
        seen.add(event.id);
        fresh.push(event);
        if (!users.has(event.employee_email)) users.set(event.employee_email, event.employee_name);
      }
      if (fresh.length === 0) continue;
      const count = (this.counts.get(detectionId) ?? 0) + fresh.length;
      this.counts.set(detectionId, count);
      const command = JSON.stringify({
        detectionId,
        count,
        users: [...users],
        events: fresh.map((e) => [
          e.id,
          e.employee_name,
          e.employee_email,
          e.description,
          e.happened,
        ]),
      });
      const state = JSON.stringify({ detectionId, count, ids: fresh.map((e) => e.id) });
      this.bytes += Buffer.from(command, 'utf8').length + Buffer.from(state, 'utf8').length;
    }
  }
}
