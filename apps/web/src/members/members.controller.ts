import { Body, Controller, Get, Inject, Post, Query, UseGuards } from '@nestjs/common';
import { UserError, type AuditContext } from '@vigil/control-plane';
import { CreateUser, InviteUser, ListUsers } from '@vigil/workspace';
import { httpStatusOf } from '../responses/domain-error-status';
import { page, redirect, type WebResult } from '../responses/web-result';
import { AdminActionGuard } from '../security/admin-action.guard';
import { AuditedBy } from '../security/audit-context.decorator';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import { ACCOUNT_EMAILS } from './account-emails';
import {
  EMPTY_MEMBER_FORM,
  isMemberAccess,
  memberFormErrors,
  readMemberForm,
  type MemberFormErrors,
  type MemberFormValues,
} from './member-form';
import { memberLinkGonePage, memberLinkPage } from './member-link-page';
import { memberListPage } from './member-list-page';
import { memberPath } from './member-paths';
import { newMemberPage } from './new-member-page';
import { userErrorMessage } from './user-error-message';

const NOTICES: Readonly<Record<string, string>> = {
  deleted: 'Member deleted. Their sessions ended, and the audit log keeps what they did.',
};

/**
 * Settings → Members: the list and adding a member, by invitation or with a password. Workspace
 * admins only, on every route and method; members see nothing of it. One member's page and
 * changes are MemberController's.
 */
@Controller('settings/members')
@UseGuards(new AdminActionGuard('manage members'))
export class MembersController {
  constructor(
    @Inject(ListUsers) private readonly listUsers: ListUsers,
    @Inject(CreateUser) private readonly createUser: CreateUser,
    @Inject(InviteUser) private readonly inviteUser: InviteUser,
    @Inject(ACCOUNT_EMAILS) private readonly emailsLinks: boolean,
  ) {}

  @Get()
  async list(
    @SignedInSession() viewer: Viewer,
    @Query('notice') notice?: string,
  ): Promise<WebResult> {
    const members = await this.listUsers.execute();
    return page(
      memberListPage(viewer, members, notice === undefined ? undefined : NOTICES[notice]),
    );
  }

  @Get('new')
  form(@SignedInSession() viewer: Viewer): WebResult {
    return page(newMemberPage(viewer, EMPTY_MEMBER_FORM, { emailsLinks: this.emailsLinks }));
  }

  @Post()
  async add(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const values = readMemberForm(body);
    if (!isMemberAccess(values.access)) {
      return this.refused(viewer, values, {
        access: 'Choose how they get their password.',
        other: [],
      });
    }
    const { name, email, role, password } = values;
    try {
      if (values.access === 'password') {
        const user = await this.createUser.execute({ name, email, role, password }, audit);
        return redirect(`${memberPath(user)}?notice=created`);
      }
      const { user, link } = await this.inviteUser.execute({ name, email, role }, audit);
      if (link.via === 'email') return redirect(`${memberPath(user)}?notice=invitation-emailed`);
      return page(memberLinkPage(viewer, user, link, 'invitation'), 201);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      const errors = memberFormErrors(error.details);
      const other = error.details.length === 0 ? [userErrorMessage(error)] : errors.other;
      return this.refused(viewer, values, { ...errors, other }, httpStatusOf(error));
    }
  }

  /** Where the link page's history entry points once the link has been shown. */
  @Get('link-shown')
  linkShown(@SignedInSession() viewer: Viewer): WebResult {
    return page(memberLinkGonePage(viewer));
  }

  private refused(
    viewer: Viewer,
    values: MemberFormValues,
    errors: MemberFormErrors,
    status = 422,
  ): WebResult {
    // The password is never sent back to the browser.
    const shown = { ...values, password: '' };
    return page(newMemberPage(viewer, shown, { emailsLinks: this.emailsLinks, errors }), status);
  }
}
