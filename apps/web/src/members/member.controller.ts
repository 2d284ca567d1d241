import { Body, Controller, Get, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { UserError, type AuditContext } from '@vigil/control-plane';
import {
  ChangeUserRole,
  DeleteUser,
  DisableUser,
  EnableUser,
  FindUser,
  ResetUserPassword,
} from '@vigil/workspace';
import { httpStatusOf } from '../responses/domain-error-status';
import { page, redirect, type WebResult } from '../responses/web-result';
import { AdminActionGuard } from '../security/admin-action.guard';
import { AuditedBy } from '../security/audit-context.decorator';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import { ACCOUNT_PATH } from '../views/account-page';
import { deleteMemberPage } from './delete-member-page';
import { memberLinkPage } from './member-link-page';
import { memberPage } from './member-page';
import { MEMBERS_PATH, memberPath } from './member-paths';
import { userErrorMessage } from './user-error-message';

const NOTICES: Readonly<Record<string, string>> = {
  created: 'Member added. They can sign in with the password you set.',
  'invitation-emailed': 'Invitation emailed. The link works once, for 7 days.',
  'reset-emailed': 'Password reset link emailed. It works once, for 24 hours.',
  role: 'Role changed. It applies to their next request; their sessions ended.',
  disabled: 'Member disabled. Their sessions ended, and they cannot sign in.',
  enabled: 'Member enabled. They can sign in again.',
};

/**
 * One member, for workspace admins: their page, and the changes the user rules allow (role,
 * disable, enable, password reset, delete). A refusal shows the page again saying why; nothing
 * changed. A change to the admin's own account that ends their session sends them to sign in.
 */
@Controller('settings/members/:id')
@UseGuards(new AdminActionGuard('manage members'))
export class MemberController {
  constructor(
    @Inject(FindUser) private readonly findUser: FindUser,
    @Inject(ChangeUserRole) private readonly changeRole: ChangeUserRole,
    @Inject(DisableUser) private readonly disableUser: DisableUser,
    @Inject(EnableUser) private readonly enableUser: EnableUser,
    @Inject(ResetUserPassword) private readonly resetPassword: ResetUserPassword,
    @Inject(DeleteUser) private readonly deleteUser: DeleteUser,
  ) {}

  @Get()
  async show(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
    @Query('notice') notice?: string,
  ): Promise<WebResult> {
    const user = await this.findUser.execute({ userId: id });
    return page(memberPage(viewer, { user, notice: notice && NOTICES[notice] }));
  }

  @Post('role')
  async role(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Param('id') id: string,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const role = typeof body.role === 'string' ? body.role : '';
    return this.change(viewer, id, async () => {
      const user = await this.changeRole.execute({ userId: id, role }, audit);
      // Demoted yourself: the next request has member rights, so leave the admin pages.
      const self = user.id === viewer.session.user.id && user.role !== 'admin';
      return redirect(self ? ACCOUNT_PATH : `${memberPath(user)}?notice=role`);
    });
  }

  @Post('disable')
  async disable(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Param('id') id: string,
  ): Promise<WebResult> {
    return this.change(viewer, id, async () => {
      const user = await this.disableUser.execute({ userId: id }, audit);
      return redirect(`${memberPath(user)}?notice=disabled`);
    });
  }

  @Post('enable')
  async enable(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Param('id') id: string,
  ): Promise<WebResult> {
    return this.change(viewer, id, async () => {
      const user = await this.enableUser.execute({ userId: id }, audit);
      return redirect(`${memberPath(user)}?notice=enabled`);
    });
  }

  @Post('reset-password')
  async reset(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Param('id') id: string,
  ): Promise<WebResult> {
    return this.change(viewer, id, async () => {
      const user = await this.findUser.execute({ userId: id });
      const link = await this.resetPassword.execute({ userId: id }, audit);
      if (link.via === 'email') return redirect(`${memberPath(user)}?notice=reset-emailed`);
      return page(memberLinkPage(viewer, user, link, 'password_reset'), 201);
    });
  }

  @Get('delete')
  async confirmDelete(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
  ): Promise<WebResult> {
    return page(deleteMemberPage(viewer, await this.findUser.execute({ userId: id })));
  }

  @Post('delete')
  async delete(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Param('id') id: string,
  ): Promise<WebResult> {
    return this.change(viewer, id, async () => {
      await this.deleteUser.execute({ userId: id }, audit);
      return redirect(`${MEMBERS_PATH}?notice=deleted`);
    });
  }

  /** Runs a change; a refusal of the user rules shows the member's page saying why. */
  private async change(
    viewer: Viewer,
    id: string,
    work: () => Promise<WebResult>,
  ): Promise<WebResult> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof UserError) || error.code === 'not_found') throw error;
      const user = await this.findUser.execute({ userId: id });
      // A refused role is the one input of these forms: the rule says what is wrong with it.
      const refusal = error.code === 'invalid_request' ? error.message : userErrorMessage(error);
      return page(memberPage(viewer, { user, refusal }), httpStatusOf(error));
    }
  }
}
