/**
 * Waits until every promise has settled or `ms` have passed, whichever comes first; never
 * rejects. For a stop that lets work under way finish (so it does not close a client that work is
 * using) without letting a hung server hold the stop forever.
 */
export async function settleWithin(
  promises: Iterable<Promise<unknown>>,
  ms: number,
): Promise<void> {
  const pending = [...promises];
  if (pending.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([Promise.allSettled(pending), limit]);
  } finally {
    clearTimeout(timer);
  }
}
