import { createLogger, runUntilSignal } from '@vigil/config';
import { startAllInOne, startupBanner } from './start-all-in-one';

// Every app in one process, with the local webhook receiver and mail catcher.
runUntilSignal(
  'all-in-one',
  async () => {
    const app = await startAllInOne();
    const smtpIsInbox = app.env.SMTP_PORT === String(app.inbox.smtpPort);
    process.stdout.write(`\n${startupBanner(app.urls, app.env, smtpIsInbox)}\n\n`);
    return app;
  },
  createLogger('all-in-one'),
);
