import {
  Controller,
  Get,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiTokenService,
  DEFAULT_TOKEN_LIFETIME_DAYS,
  TokenError,
  isPermissionLevel,
  validateCreateToken,
  type FieldProblem,
} from '@vigil/control-plane';
import { AdminActionGuard } from '../security/admin-action.guard';
import { type WebRequest } from '../security/web-request';
import { sendPage } from '../views/send-page';
import {
  EMPTY_FORM,
  formErrors,
  parseExpiry,
  readApiKeyForm,
  unknownScopeFields,
  withPreset,
} from './api-key-form';
import {
  API_KEYS_PATH,
  apiKeyCreatedGonePage,
  apiKeyCreatedPage,
  apiKeyListPage,
  createApiKeyPage,
  deleteApiKeyPage,
} from './api-key-pages';

const NOTICES: Readonly<Record<string, string>> = {
  deleted: 'API key deleted. Requests made with it are now rejected.',
};

/**
 * Settings → Access → API Keys. Workspace admins only, on every route and method; the token
 * rules are the ApiTokenService's, the same the operator CLI uses.
 */
@Controller('settings/access/api-keys')
@UseGuards(new AdminActionGuard('manage API keys'))
export class ApiKeysController {
  constructor(@Inject(ApiTokenService) private readonly tokens: ApiTokenService) {}

  @Get()
  async list(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('notice') notice?: string,
  ): Promise<void> {
    const tokens = await this.tokens.listTokens();
    const message = notice === undefined ? undefined : NOTICES[notice];
    sendPage(res, apiKeyListPage(req.auth!, req.csrfToken, tokens, message));
  }

  @Get('new')
  form(@Req() req: WebRequest, @Res() res: Response): void {
    sendPage(res, createApiKeyPage(req.auth!, req.csrfToken, EMPTY_FORM));
  }

  @Post()
  async create(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const values = readApiKeyForm(body);
    const preset = body.preset;
    if (isPermissionLevel(preset)) {
      // A preset button pressed without the script: show the form with every scope set.
      return sendPage(res, createApiKeyPage(req.auth!, req.csrfToken, withPreset(values, preset)));
    }
    const command = {
      name: values.name,
      permissions: { ...unknownScopeFields(body), ...values.levels },
      createdBy: req.auth!.user.email,
    };
    const problems: FieldProblem[] = [];
    try {
      const expiry = parseExpiry(values);
      if (typeof expiry === 'number') {
        const { token, value } = await this.tokens.createToken({
          ...command,
          expiresInDays: expiry,
        });
        return sendPage(res, apiKeyCreatedPage(req.auth!, req.csrfToken, token, value), 201);
      }
      problems.push(expiry);
      // Report the other fields' problems too, in the same pass.
      validateCreateToken({ ...command, expiresInDays: DEFAULT_TOKEN_LIFETIME_DAYS }, new Date());
    } catch (error) {
      if (!(error instanceof TokenError) || error.code !== 'invalid_request') throw error;
      problems.push(...error.details);
    }
    sendPage(res, createApiKeyPage(req.auth!, req.csrfToken, values, formErrors(problems)), 422);
  }

  /** Where the created page's history entry points once the value has been shown. */
  @Get('created')
  created(@Req() req: WebRequest, @Res() res: Response): void {
    sendPage(res, apiKeyCreatedGonePage(req.auth!, req.csrfToken));
  }

  @Get(':id/delete')
  async confirmDelete(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const token = (await this.tokens.listTokens()).find((t) => t.id === id);
    if (token === undefined) throw new NotFoundException('No such API key');
    sendPage(res, deleteApiKeyPage(req.auth!, req.csrfToken, token));
  }

  @Post(':id/delete')
  async delete(@Res() res: Response, @Param('id') id: string): Promise<void> {
    try {
      await this.tokens.deleteToken(id);
    } catch (error) {
      if (error instanceof TokenError && error.code === 'not_found') {
        throw new NotFoundException('No such API key');
      }
      throw error;
    }
    res.redirect(303, `${API_KEYS_PATH}?notice=deleted`);
  }
}
