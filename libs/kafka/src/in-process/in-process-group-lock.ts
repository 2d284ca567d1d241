/**
 * Consumer-group membership of the in-process log. One process has no need to spread a
 * group's partitions: the first member of a group owns all of them, and a second member of the
 * same group waits until the first leaves, then resumes from the committed offsets (a standby,
 * as a second Kafka member with nothing left to assign).
 */
export class InProcessGroupLock {
  private readonly holders = new Map<string, Promise<void>>();

  /** Resolves once `groupId` is this caller's; call the returned function to leave. */
  async acquire(groupId: string): Promise<() => void> {
    const previous = this.holders.get(groupId) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const chained = previous.then(() => mine);
    this.holders.set(groupId, chained);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (this.holders.get(groupId) === chained) this.holders.delete(groupId);
      release();
    };
  }
}
