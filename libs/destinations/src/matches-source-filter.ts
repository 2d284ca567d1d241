import type { DestinationNotification } from './destination-notification';

/**
 * Whether a destination with this source filter is notified: an empty filter takes everything;
 * a detection notification matches when one of its new events comes from a listed source
 * (ignoring case). An investigation names no source of its own and always matches.
 */
export function matchesSourceFilter(
  notification: DestinationNotification,
  sources: readonly string[],
): boolean {
  if (sources.length === 0 || notification.subject === 'investigation') return true;
  const wanted = new Set(sources.map((source) => source.toLowerCase()));
  return notification.sources.some((source) => wanted.has(source.toLowerCase()));
}
