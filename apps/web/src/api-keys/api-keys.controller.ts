import { Body, Controller, Get, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { TokenError, isPermissionLevel, type AuditContext } from '@vigil/control-plane';
import { CreateApiToken, DeleteApiToken, FindApiToken, ListApiTokens } from '@vigil/workspace';
import { httpStatusOf } from '../responses/domain-error-status';
import { page, redirect, type WebResult } from '../responses/web-result';
import { AdminActionGuard } from '../security/admin-action.guard';
import { AuditedBy } from '../security/audit-context.decorator';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import {
  EMPTY_FORM,
  createApiTokenCommand,
  formErrors,
  readApiKeyForm,
  withPreset,
} from './api-key-form';
import { apiKeyCreatedGonePage, apiKeyCreatedPage } from './api-key-created-page';
import { API_KEYS_PATH, apiKeyListPage } from './api-key-list-page';
import { createApiKeyPage } from './create-api-key-page';
import { deleteApiKeyPage } from './delete-api-key-page';

const NOTICES: Readonly<Record<string, string>> = {
  deleted: 'API key deleted. Requests made with it are now rejected.',
};

/**
 * Settings → Access → API Keys. Workspace admins only, on every route and method; the token
 * rules are the ones the operator CLI applies too.
 */
@Controller('settings/access/api-keys')
@UseGuards(new AdminActionGuard('manage API keys'))
export class ApiKeysController {
  constructor(
    @Inject(ListApiTokens) private readonly listTokens: ListApiTokens,
    @Inject(CreateApiToken) private readonly createToken: CreateApiToken,
    @Inject(FindApiToken) private readonly findToken: FindApiToken,
    @Inject(DeleteApiToken) private readonly deleteToken: DeleteApiToken,
  ) {}

  @Get()
  async list(
    @SignedInSession() viewer: Viewer,
    @Query('notice') notice?: string,
  ): Promise<WebResult> {
    const tokens = await this.listTokens.execute({ now: new Date() });
    return page(apiKeyListPage(viewer, tokens, notice === undefined ? undefined : NOTICES[notice]));
  }

  @Get('new')
  form(@SignedInSession() viewer: Viewer): WebResult {
    return page(createApiKeyPage(viewer, EMPTY_FORM));
  }

  @Post()
  async create(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const values = readApiKeyForm(body);
    if (isPermissionLevel(body.preset)) {
      // A preset button pressed without the script: show the form with every scope set.
      return page(createApiKeyPage(viewer, withPreset(values, body.preset)));
    }
    const command = createApiTokenCommand(values, body, viewer.session.user.email, new Date());
    try {
      const { token, value } = await this.createToken.execute(command, audit);
      return page(apiKeyCreatedPage(viewer, token, value), 201);
    } catch (error) {
      if (!(error instanceof TokenError) || error.code !== 'invalid_request') throw error;
      return page(createApiKeyPage(viewer, values, formErrors(error.details)), httpStatusOf(error));
    }
  }

  /** Where the created page's history entry points once the value has been shown. */
  @Get('created')
  created(@SignedInSession() viewer: Viewer): WebResult {
    return page(apiKeyCreatedGonePage(viewer));
  }

  @Get(':id/delete')
  async confirmDelete(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
  ): Promise<WebResult> {
    const token = await this.findToken.execute({ tokenId: id, now: new Date() });
    return page(deleteApiKeyPage(viewer, token));
  }

  @Post(':id/delete')
  async delete(@Param('id') id: string, @AuditedBy() audit: AuditContext): Promise<WebResult> {
    await this.deleteToken.execute({ tokenId: id }, audit);
    return redirect(`${API_KEYS_PATH}?notice=deleted`);
  }
}
