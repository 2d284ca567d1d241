/**
 * The chaos suite runs in two sizes: shortened inside `npm test` (minutes in all) and full
 * under `npm run test:chaos` (VIGIL_CHAOS=full), with the volumes and durations issue #8 names.
 */
export const chaosFull = process.env.VIGIL_CHAOS === 'full';

/** `short` inside `npm test`, `full` under `npm run test:chaos`. */
export function chaosScale<T>(short: T, full: T): T {
  return chaosFull ? full : short;
}
