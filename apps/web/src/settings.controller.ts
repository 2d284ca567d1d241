import { Controller, Get, UseGuards } from '@nestjs/common';
import { API_KEYS_PATH } from './api-keys/api-key-list-page';
import { page, redirect, type WebResult } from './responses/web-result';
import { SignedInGuard } from './security/signed-in.guard';
import { SignedInSession, type Viewer } from './security/signed-in-session.decorator';
import { ACCOUNT_PATH, accountPage } from './views/account-page';

const ACCESS_PATH = '/settings/access';

/** The entry points of the application and Settings → Access → Your account. */
@Controller()
@UseGuards(SignedInGuard)
export class SettingsController {
  @Get()
  home(): WebResult {
    return redirect(ACCESS_PATH);
  }

  @Get('settings')
  settings(): WebResult {
    return redirect(ACCESS_PATH);
  }

  @Get('settings/access')
  access(@SignedInSession() viewer: Viewer): WebResult {
    return redirect(viewer.session.user.role === 'admin' ? API_KEYS_PATH : ACCOUNT_PATH);
  }

  @Get('settings/access/account')
  account(@SignedInSession() viewer: Viewer): WebResult {
    return page(accountPage(viewer));
  }
}
