import { detectionPath } from '../detections/detection-format';

/** The global fallback destination's form. */
export const GLOBAL_FALLBACK_PATH = '/settings/integrations/fallback';

/** A detection's own fallback destination's form. */
export function detectionFallbackPath(detectionId: string): string {
  return `${detectionPath(detectionId)}/fallback`;
}
