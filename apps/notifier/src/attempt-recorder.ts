import type { RecordedAttempt } from '@vigil/control-plane';

interface Waiting {
  record: RecordedAttempt;
  resolve: (recorded: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for delivery attempts: an attempt recorded while a write is in flight joins the
 * next write, so a busy notifier commits once per round trip instead of once per delivery, and
 * an idle one still writes each attempt at once. Each caller learns whether its own attempt was
 * recorded (false: its lease was lost) or the error of the write that carried it.
 */
export class AttemptRecorder {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(
    private readonly write: (records: readonly RecordedAttempt[]) => Promise<Set<string>>,
    private readonly maxPerWrite = 500,
  ) {}

  record(record: RecordedAttempt): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ record, resolve, reject });
      if (!this.writing) void this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxPerWrite);
      try {
        const recorded = await this.write(batch.map((w) => w.record));
        for (const w of batch) w.resolve(recorded.has(w.record.id.toLowerCase()));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    this.writing = false;
  }
}
