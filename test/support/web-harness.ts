import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { RunningApp } from '@vigil/config';
import {
  createPgSqlClient,
  createUserService,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { startApi } from '../../apps/api/src/start-api';
import { startWeb } from '../../apps/web/src/start-web';
import { launchBrowser, openPage, signIn, type BrowserSession } from './browser';

export const PASSWORD = 'a long enough password';

export interface WebUser {
  readonly email: string;
  readonly name: string;
}

export interface WebHarnessOptions {
  /** Starts the query API too, with the same environment. */
  readonly withApi?: boolean;
  /** Variables added to the test environment of the started applications. */
  readonly env?: Record<string, string>;
}

/**
 * The web application started in-process on the test database, with a workspace admin and a
 * member (both signed in with PASSWORD) and a headless browser to visit it.
 */
export interface WebHarness {
  /** The web application's address. */
  readonly url: string;
  /** The query API's address, when started `withApi`. */
  readonly apiUrl: string | undefined;
  readonly sql: SqlClient;
  readonly browser: Browser;
  readonly admin: WebUser;
  readonly member: WebUser;
  /** A fresh browser profile, not signed in. */
  openPage(width?: number): Promise<BrowserSession>;
  /** A fresh browser profile signed in through the sign-in form, at `url` unless told. */
  signedIn(who: WebUser, options?: { width?: number; url?: string }): Promise<Page>;
  stop(): Promise<void>;
}

export async function startWebHarness(options: WebHarnessOptions = {}): Promise<WebHarness> {
  const env = {
    ...process.env,
    WEB_PORT: '0',
    ...(options.withApi ? { API_PORT: '0' } : {}),
    ...options.env,
  };
  const web: RunningApp = await startWeb(env);
  const api: RunningApp | undefined = options.withApi ? await startApi(env) : undefined;
  const sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
  await runMigrations(sql);
  const admin = { email: `admin-${randomUUID()}@example.com`, name: 'Ada Admin' };
  const member = { email: `member-${randomUUID()}@example.com`, name: 'Max Member' };
  const users = createUserService(sql);
  await users.createUser({ ...admin, role: 'admin', password: PASSWORD });
  await users.createUser({ ...member, role: 'member', password: PASSWORD });
  const browser = await launchBrowser();
  const url = web.url!;
  return {
    url,
    apiUrl: api?.url,
    sql,
    browser,
    admin,
    member,
    openPage: (width) => openPage(browser, width),
    async signedIn(who, { width = 1280, url: base = url } = {}) {
      const { page } = await openPage(browser, width);
      await signIn(page, base, who.email, PASSWORD);
      return page;
    },
    async stop() {
      await browser.close();
      await web.stop();
      await api?.stop();
      await sql.close();
    },
  };
}
