import { type EventReadModel } from '@vigil/search';
import { WorkspaceError } from '../workspace-error';

/** Settings are kept only for detections that exist, so a typo cannot create one. */
export async function requireDetection(
  readModel: Pick<EventReadModel, 'detectionExists'>,
  detectionId: string,
): Promise<void> {
  if (!(await readModel.detectionExists(detectionId))) {
    throw new WorkspaceError('not_found', 'No such detection');
  }
}
