import type { DecodedRecord } from '@vigil/kafka';
import { resolveEffectiveSettings } from '@vigil/notification-policy';
import { DetectionPartition } from '../../apps/stream-processor/src/detection-partition';
import { benchEventRecord } from './bench-event-record';
import { median } from './bench-passes';
import { MinimalDetectionWork } from './minimal-detection-work';
import { HEAVIEST_OUTPUT_SETTINGS } from './save-heaviest-output-settings';

export interface PartitionWorkCpu {
  /** CPU time per event of the processor's partition (process and commit), no Kafka. */
  processorMicros: number;
  /** The same of MinimalDetectionWork on the same batches. */
  leastWorkMicros: number;
}

/**
 * The work of one partition alone, in memory, as CPU time per event: the processor's
 * DetectionPartition against MinimalDetectionWork on the same decoded batches (`events` over
 * `detections`, `batchSize` per batch), medians of `passes` alternate passes after one to warm
 * up, each on events of its own. Without Kafka, the figures do not move with the broker or the
 * network.
 */
export function partitionWorkCpu(
  events: number,
  detections: number,
  batchSize: number,
  passes = 3,
): PartitionWorkCpu {
  const settings = {
    effective: () => resolveEffectiveSettings(HEAVIEST_OUTPUT_SETTINGS, undefined),
  };
  const topics = { notificationCommands: 'commands', detectionState: 'state' };
  const processor: number[] = [];
  const leastWork: number[] = [];
  // Pass -1 warms both up (a processor runs for days) and is not counted.
  for (let pass = -1; pass < passes; pass++) {
    const forProcessor = decodedBatches(`cpu-p${pass}`, events, detections, batchSize);
    const partition = new DetectionPartition({ topics, partition: 0, settings }, new Map(), 0);
    const processorMicros = cpuMicrosPerEvent(events, () => {
      for (const batch of forProcessor) partition.process(batch, Date.now()).commit?.();
    });
    const forLeastWork = decodedBatches(`cpu-w${pass}`, events, detections, batchSize);
    const values = forLeastWork.map((batch) => batch.map((record) => record.value));
    const work = new MinimalDetectionWork();
    const leastWorkMicros = cpuMicrosPerEvent(events, () => {
      forLeastWork.forEach((batch, i) => work.apply(batch, values[i]));
    });
    if (pass < 0) continue;
    processor.push(processorMicros);
    leastWork.push(leastWorkMicros);
  }
  return { processorMicros: median(processor), leastWorkMicros: median(leastWork) };
}

function cpuMicrosPerEvent(events: number, run: () => void): number {
  // The garbage of preparing the batches is not the work's.
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.cpuUsage();
  run();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / events;
}

/** The bench's events as the decoder hands them over: fresh strings, keyed by detection. */
function decodedBatches(
  runId: string,
  events: number,
  detections: number,
  batchSize: number,
): DecodedRecord[][] {
  const batches: DecodedRecord[][] = [];
  for (let from = 0; from < events; from += batchSize) {
    const batch: DecodedRecord[] = [];
    for (let n = from; n < Math.min(events, from + batchSize); n++) {
      const value = JSON.parse(JSON.stringify(benchEventRecord(runId, n, detections))) as {
        detection_id: string;
      };
      batch.push({
        topic: 'events',
        partition: 0,
        offset: String(n),
        key: Buffer.from(value.detection_id),
        raw: { key: null, value: null, headers: {}, offset: String(n), timestamp: '0' },
        value,
      });
    }
    batches.push(batch);
  }
  return batches;
}
