import { createLogger, runUntilSignal } from '@vigil/config';
import { startApi } from './start-api';

runUntilSignal('api', () => startApi(), createLogger('api'));
