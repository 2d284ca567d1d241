import { createLogger, runUntilSignal } from '@vigil/config';
import { startStreamProcessor } from './start-stream-processor';

runUntilSignal('stream-processor', () => startStreamProcessor(), createLogger('stream-processor'));
