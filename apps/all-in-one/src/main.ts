import { createLogger, runUntilSignal } from '@vigil/config';
import { startAllInOne, startupBanner } from './start-all-in-one';

const logger = createLogger('all-in-one');

// Every app in one process, with the local webhook receiver and mail catcher.
runUntilSignal(
  'all-in-one',
  async () => {
    const app = await startAllInOne();
    const smtpIsInbox = app.env.SMTP_PORT === String(app.inbox.smtpPort);
    const banner = `\n${startupBanner(app.urls, app.env, smtpIsInbox)}\n\n`;
    if (process.stdout.isTTY) {
      process.stdout.write(banner);
    } else {
      // stdout carries JSON lines for a log shipper: the addresses go there as one more line,
      // and the banner for a person to stderr.
      logger.info({ urls: app.urls }, 'Vigil is running (all apps in one process)');
      process.stderr.write(banner);
    }
    return app;
  },
  logger,
);
