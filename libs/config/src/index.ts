export { ConfigError } from './config-error';
export {
  DEFAULT_OPS_PORTS,
  configVariables,
  loadConfig,
  type ConfigOf,
  type ConfigVariable,
  type ConfigSection,
  type OpsAppName,
  type SectionValues,
} from './load-config';
export {
  CONFIGURATION_REFERENCE_PATH,
  configReaders,
  describeVariable,
  renderConfigurationReference,
  undocumentedVariables,
  writeConfigurationReference,
  type VariableReference,
} from './configuration-reference';
export { decodeKeyText } from './decode-key-text';
export { createLogger, routeLogsTo, type Logger } from './create-logger';
export { runUntilSignal, type RunningApp } from './run-until-signal';
export { settleWithin } from './settle-within';
export { claimDataFolder, DataFolderInUseError } from './claim-data-folder';
export { makeFolderPrivate } from './make-folder-private';
export { parseTrustProxy, trustProxySetting, type TrustProxy } from './trust-proxy';
