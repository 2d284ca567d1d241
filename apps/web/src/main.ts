import { createLogger, runUntilSignal } from '@vigil/config';
import { startWeb } from './start-web';

runUntilSignal('web', () => startWeb(), createLogger('web'));
