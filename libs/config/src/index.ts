export { ConfigError } from './config-error';
export { loadConfig, type ConfigOf, type ConfigSection, type SectionValues } from './load-config';
export { createLogger, routeLogsTo, type Logger } from './create-logger';
export { runUntilSignal, type RunningApp } from './run-until-signal';
export { claimDataFolder, DataFolderInUseError } from './claim-data-folder';
