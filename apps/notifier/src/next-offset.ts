/** The offset to commit after handling `lastOffset`: Kafka commits the next offset to read. */
export function nextOffset(lastOffset: string): string {
  return (BigInt(lastOffset) + 1n).toString();
}
