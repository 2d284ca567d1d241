import { Body, Controller, Get, Inject, Param, Post, Req } from '@nestjs/common';
import { UserError, type AuditContext, type OneTimeLinkPurpose } from '@vigil/control-plane';
import { CompleteOneTimeLink, ShowOneTimeLink } from '@vigil/workspace';
import { userErrorMessage } from '../members/user-error-message';
import { httpStatusOf } from '../responses/domain-error-status';
import { page, redirect, type WebResult } from '../responses/web-result';
import { RequestOrigin } from '../security/audit-context.decorator';
import { type WebRequest } from '../security/web-request';
import { linkRefusedPage, passwordSetPage, setPasswordPage } from './set-password-page';

const PASSWORD_SET_PATH = '/password-set';
const PATHS: Readonly<Record<OneTimeLinkPurpose, string>> = {
  invitation: '/invitation',
  password_reset: '/reset-password',
};
type Form = Record<string, unknown>;

const text = (body: Form, name: string) => (typeof body[name] === 'string' ? body[name] : '');

/**
 * The pages behind one-time links, for someone who is not signed in: an invitation and a
 * password reset each show who the link is for and set the password once; nobody is signed in
 * by it. Forms carry the browser's pre-session CSRF token, as sign-in does. A link that cannot
 * be used says why (unknown, expired, used, superseded) and changes nothing.
 */
@Controller()
export class OneTimeLinkController {
  constructor(
    @Inject(ShowOneTimeLink) private readonly showLink: ShowOneTimeLink,
    @Inject(CompleteOneTimeLink) private readonly completeLink: CompleteOneTimeLink,
  ) {}

  @Get('invitation/:token')
  invitation(@Req() req: WebRequest, @Param('token') token: string): Promise<WebResult> {
    return this.show(req, token, 'invitation');
  }

  @Post('invitation/:token')
  acceptInvitation(
    @Req() req: WebRequest,
    @RequestOrigin() origin: Omit<AuditContext, 'actor'>,
    @Param('token') token: string,
    @Body() body: Form = {},
  ): Promise<WebResult> {
    return this.complete(req, origin, token, 'invitation', body);
  }

  @Get('reset-password/:token')
  reset(@Req() req: WebRequest, @Param('token') token: string): Promise<WebResult> {
    return this.show(req, token, 'password_reset');
  }

  @Post('reset-password/:token')
  completeReset(
    @Req() req: WebRequest,
    @RequestOrigin() origin: Omit<AuditContext, 'actor'>,
    @Param('token') token: string,
    @Body() body: Form = {},
  ): Promise<WebResult> {
    return this.complete(req, origin, token, 'password_reset', body);
  }

  @Get('password-set')
  passwordSet(): WebResult {
    return page(passwordSetPage());
  }

  private async show(req: WebRequest, token: string, purpose: OneTimeLinkPurpose) {
    try {
      const link = await this.showLink.execute({ token, purpose });
      const action = `${PATHS[purpose]}/${token}`;
      return page(setPasswordPage({ csrfToken: req.csrfToken, action, link }));
    } catch (error) {
      return refused(error);
    }
  }

  private async complete(
    req: WebRequest,
    origin: Omit<AuditContext, 'actor'>,
    token: string,
    purpose: OneTimeLinkPurpose,
    body: Form,
  ): Promise<WebResult> {
    const password = text(body, 'password');
    const confirmation = text(body, 'confirmation');
    try {
      await this.completeLink.execute({ token, purpose, password, confirmation }, origin);
      return redirect(PASSWORD_SET_PATH);
    } catch (error) {
      if (!(error instanceof UserError) || error.code !== 'invalid_request') return refused(error);
      const link = await this.showLink.execute({ token, purpose }).catch(() => null);
      if (link === null) return refused(error);
      const problem = (field: string) => error.details.find((d) => d.field === field)?.message;
      const errors = {
        password: problem('password') && `The password ${problem('password')}.`,
        confirmation:
          problem('confirmation') && 'The two passwords differ: type the same one in both fields.',
      };
      const action = `${PATHS[purpose]}/${token}`;
      return page(setPasswordPage({ csrfToken: req.csrfToken, action, link, errors }), 422);
    }
  }
}

/** A link refused by the user rules, as its page; anything else is not ours to answer. */
function refused(error: unknown): WebResult {
  if (!(error instanceof UserError)) throw error;
  return page(linkRefusedPage(userErrorMessage(error)), httpStatusOf(error));
}
