// The ops side of every app (DESIGN.md §9): metrics, liveness, readiness, request logs.
export { AppOps, type AppStartOptions } from './app-ops';
export { OpsRuntime, type OpsRuntimeOptions } from './ops-runtime';
export { startOpsListener, type OpsListener, type OpsListenerOptions } from './http/ops-listener';
export {
  observeRequests,
  routeOf,
  UNMATCHED_ROUTE,
  type NodeRequestHandler,
  type ObserveRequestsOptions,
  type RequestPrincipal,
} from './http/observe-requests';
export { type ReadinessCheck } from './readiness/readiness-check';
export {
  Readiness,
  type DependencyFailure,
  type ReadinessOptions,
  type ReadinessReport,
} from './readiness/readiness';
export { Liveness, type LivenessReport } from './liveness/liveness';
export { LoopHeartbeat, type LivenessLimits, type LoopStatus } from './liveness/loop-heartbeat';
export {
  MetricCatalogue,
  ATTEMPT_OUTCOMES,
  DEAD_LETTER_REASONS,
  type AttemptOutcome,
  type DeadLetterReasonLabel,
  type NotificationChannelLabel,
  type NotificationModeLabel,
  type SignInOutcome,
} from './metrics/metric-catalogue';
export { ConsumerInstruments, type PartitionLagSample } from './metrics/consumer-instruments';
export { ProcessorInstruments } from './metrics/processor-instruments';
export { NotifierInstruments } from './metrics/notifier-instruments';
export { HttpInstruments } from './metrics/http-instruments';
export { IngestInstruments, type IngestKind } from './metrics/ingest-instruments';
export { QueryInstruments, type QueryErrorCode } from './metrics/query-instruments';
export { SignInInstruments } from './metrics/sign-in-instruments';
export { PeriodicRefresh, type PeriodicRefreshOptions } from './metrics/periodic-refresh';
