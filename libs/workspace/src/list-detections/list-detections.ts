import { decodeDetectionCursor, type DetectionListItem, type EventReadModel } from '@vigil/search';
import { WorkspaceError } from '../workspace-error';

export const DETECTIONS_PER_PAGE = 25;

export interface DetectionListPage {
  readonly items: readonly DetectionListItem[];
  readonly nextCursor: string | null;
  /** Whether this is a later page (which offers the way back to the first). */
  readonly paged: boolean;
}

/** Monitor → Detections: every detection, most recently active first, a page at a time. */
export class ListDetections {
  constructor(private readonly readModel: Pick<EventReadModel, 'listDetections'>) {}

  async execute(query: { readonly cursor?: string }): Promise<DetectionListPage> {
    const { cursor } = query;
    if (cursor !== undefined && decodeDetectionCursor(cursor) === null) {
      throw new WorkspaceError('invalid_cursor', 'The page cursor is not one this list issued');
    }
    const page = await this.readModel.listDetections({ limit: DETECTIONS_PER_PAGE, cursor });
    return { items: page.items, nextCursor: page.nextCursor, paged: cursor !== undefined };
  }
}
