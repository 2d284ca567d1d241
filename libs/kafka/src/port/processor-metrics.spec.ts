import { countBatchStages, emptyProcessorMetrics } from './processor-metrics';

describe('countBatchStages', () => {
  it('adds each step of a batch to its own sum, and the outputs', () => {
    const metrics = emptyProcessorMetrics();
    countBatchStages(metrics, { started: 100, decoded: 130, processed: 180, committed: 260 }, 7);
    countBatchStages(metrics, { started: 300, decoded: 305, processed: 315, committed: 330 }, 2);
    expect(metrics.stageMs).toEqual({ decode: 35, process: 60, commit: 95 });
    expect(metrics.outputs).toBe(9);
  });

  it('starts from zero for every processor', () => {
    const first = emptyProcessorMetrics();
    first.stageMs.decode = 5;
    expect(emptyProcessorMetrics().stageMs.decode).toBe(0);
  });
});
