import { Body, Controller, Get, Inject, Post, Query, UseGuards } from '@nestjs/common';
import { WebhookProviderError, type AuditContext } from '@vigil/control-plane';
import {
  EnrollWebhookProvider,
  ListWebhookProviders,
  ShowFallbackDestinations,
} from '@vigil/workspace';
import { httpStatusOf } from '../responses/domain-error-status';
import { page, redirect, type WebResult } from '../responses/web-result';
import { AdminActionGuard } from '../security/admin-action.guard';
import { AuditedBy } from '../security/audit-context.decorator';
import { SignedInGuard } from '../security/signed-in.guard';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import { enrollProviderPage } from './enroll-provider-page';
import { integrationsListPage, providerPath } from './integrations-list-page';
import { providerSecretPage, secretGonePage } from './provider-secret-page';
import {
  EMPTY_PROVIDER_FORM,
  checkProviderForm,
  providerErrorOf,
  readProviderForm,
} from './webhook-provider-form';

const NOTICES: Readonly<Record<string, string>> = {
  deleted: 'Webhook provider deleted. Vigil no longer sends to it.',
};
/** Shown in the fallback destination's card, where the browser lands after saving it. */
const FALLBACK_NOTICE = 'Fallback destination saved. Deliveries that die from now on go to it.';

/**
 * Settings → Integrations: the webhook providers, for everyone signed in to look at; enrolling
 * is for workspace admins. One provider's page and changes are WebhookProviderController's.
 */
@Controller('settings/integrations')
@UseGuards(SignedInGuard)
export class IntegrationsController {
  constructor(
    @Inject(ListWebhookProviders) private readonly listProviders: ListWebhookProviders,
    @Inject(EnrollWebhookProvider) private readonly enrollProvider: EnrollWebhookProvider,
    @Inject(ShowFallbackDestinations) private readonly showFallbacks: ShowFallbackDestinations,
  ) {}

  @Get()
  async list(
    @SignedInSession() viewer: Viewer,
    @Query('notice') notice?: string,
  ): Promise<WebResult> {
    const [list, { global }] = await Promise.all([
      this.listProviders.execute(),
      this.showFallbacks.execute(),
    ]);
    if (notice === 'fallback-changed') {
      return page(integrationsListPage(viewer, list, { global, notice: FALLBACK_NOTICE }));
    }
    const message = notice === undefined ? undefined : NOTICES[notice];
    return page(integrationsListPage(viewer, list, { global }, message));
  }

  @Get('new')
  @UseGuards(new AdminActionGuard('enroll webhook providers'))
  form(@SignedInSession() viewer: Viewer): WebResult {
    return page(enrollProviderPage(viewer, EMPTY_PROVIDER_FORM));
  }

  @Post()
  @UseGuards(new AdminActionGuard('enroll webhook providers'))
  async enroll(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const values = readProviderForm(body);
    const checked = checkProviderForm(values);
    if (!checked.ok) return page(enrollProviderPage(viewer, values, checked.errors), 422);
    try {
      const { provider, secret } = await this.enrollProvider.execute(checked.command, audit);
      // Slack, Teams and PagerDuty do not verify signatures: there is no secret to hand over.
      if (provider.destination !== 'webhook') {
        return redirect(`${providerPath(provider)}?notice=enrolled`);
      }
      return page(providerSecretPage(viewer, provider, secret, 'enrolled'), 201);
    } catch (error) {
      if (!(error instanceof WebhookProviderError)) throw error;
      const errors = providerErrorOf(error);
      return page(enrollProviderPage(viewer, values, errors), httpStatusOf(error));
    }
  }

  /** Where the secret page's history entry points once the secret has been shown. */
  @Get('secret-shown')
  secretShown(@SignedInSession() viewer: Viewer): WebResult {
    return page(secretGonePage(viewer));
  }
}
