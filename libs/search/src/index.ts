export { IndexNames, type ReadModelName } from './index-names';
export { detectionStatesMapping, eventsMapping, investigationsMapping } from './index-mappings';
export { ensureReadModels } from './ensure-read-models';
export {
  toEventDocument,
  toEventView,
  type EventDocument,
  type EventView,
} from './event-documents';
export {
  ElasticsearchReadModelWriter,
  type RejectedDocument,
} from './elasticsearch-read-model-writer';
export {
  ReadModelProjector,
  projectDetectionStates,
  type ProjectedKind,
  type StateTopicRecord,
} from './read-model-projector';
export { toRecordedDetectionState, type RecordedDetectionState } from './detection-state-documents';
export { type ReadModelWriter } from './read-model-writer';
export { SqlReadModelWriter } from './sql-read-model-writer';
export { SqlEventReadModel } from './sql-event-read-model';
export {
  SQL_READ_MODEL_LEDGER,
  ensureSqlReadModels,
  sqlReadModelMigrations,
} from './sql-read-model-migrations';
export {
  openEventReadModel,
  openReadModelWriter,
  type Opened,
  type OpenReadModelsOptions,
} from './open-read-models';
export { ElasticsearchSearcher, ElasticsearchSearchError } from './elasticsearch-searcher';
export {
  createElasticsearchClient,
  isElasticsearchUnavailable,
} from './create-elasticsearch-client';
export { encodeCursor, decodeCursor, type EventSortKey } from './event-cursor';
export { encodeUserCursor, decodeUserCursor } from './user-cursor';
export {
  MAX_DETECTION_LIST_OFFSET,
  encodeDetectionCursor,
  decodeDetectionCursor,
} from './detection-cursor';
export { ReadModelUnavailableError } from './read-model-unavailable-error';
export { SearchRequestError, type SearchRequestErrorCode } from './search-request-error';
export {
  type EventReadModel,
  type EventSearch,
  type EventPage,
  type DetectionSummary,
  type DetectionListItem,
  type DetectionListPage,
  type DetectionListSearch,
  type AffectedUser,
  type AffectedUserPage,
  type AffectedUserSearch,
  type InvestigationReport,
} from './event-read-model';
export { ElasticsearchEventReadModel } from './elasticsearch-event-read-model';
export { queryEvents, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type EventsResponse } from './query-events';
export { listAffectedUsers, type AffectedUsersResponse } from './list-affected-users';
