import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { SignedInGuard } from './security/signed-in.guard';
import { type WebRequest } from './security/web-request';
import { accountPage } from './views/account-page';
import { sendPage } from './views/send-page';

/** The entry points of the application and Settings → Access → Your account. */
@Controller()
@UseGuards(SignedInGuard)
export class SettingsController {
  @Get()
  home(@Res() res: Response): void {
    res.redirect(303, '/settings/access');
  }

  @Get('settings')
  settings(@Res() res: Response): void {
    res.redirect(303, '/settings/access');
  }

  @Get('settings/access')
  access(@Req() req: WebRequest, @Res() res: Response): void {
    const admin = req.auth!.user.role === 'admin';
    res.redirect(303, admin ? '/settings/access/api-keys' : '/settings/access/account');
  }

  @Get('settings/access/account')
  account(@Req() req: WebRequest, @Res() res: Response): void {
    sendPage(res, accountPage(req.auth!, req.csrfToken));
  }
}
