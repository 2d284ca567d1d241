import { createLogger, runUntilSignal } from '@vigil/config';
import { startIngest } from './start-ingest';

runUntilSignal('ingest', () => startIngest(), createLogger('ingest'));
