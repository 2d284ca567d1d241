import { createLogger, runUntilSignal } from '@vigil/config';
import { startNotifier } from './start-notifier';

runUntilSignal('notifier', () => startNotifier(), createLogger('notifier'));
