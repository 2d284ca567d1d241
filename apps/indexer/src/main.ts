import { createLogger, runUntilSignal } from '@vigil/config';
import { startIndexer } from './start-indexer';

runUntilSignal('indexer', () => startIndexer(), createLogger('indexer'));
