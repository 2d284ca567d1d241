export { ConfigError } from './config-error';
export {
  DEFAULT_OPS_PORTS,
  loadConfig,
  type ConfigOf,
  type ConfigSection,
  type OpsAppName,
  type SectionValues,
} from './load-config';
export { decodeKeyText } from './decode-key-text';
export { createLogger, routeLogsTo, type Logger } from './create-logger';
export { runUntilSignal, type RunningApp } from './run-until-signal';
export { settleWithin } from './settle-within';
export { claimDataFolder, DataFolderInUseError } from './claim-data-folder';
export { makeFolderPrivate } from './make-folder-private';
export { parseTrustProxy, trustProxySetting, type TrustProxy } from './trust-proxy';
