import { Body, Controller, Get, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { WebhookProviderError, type AuditContext } from '@vigil/control-plane';
import {
  ChangeProviderFilter,
  DeleteWebhookProvider,
  DisableWebhookProvider,
  EnableWebhookProvider,
  FindWebhookProvider,
  ResendDelivery,
  RotateWebhookSecret,
  SendTestEvent,
  ShowWebhookProvider,
} from '@vigil/workspace';
import { httpStatusOf } from '../responses/domain-error-status';
import { page, redirect, type WebResult } from '../responses/web-result';
import { AdminActionGuard } from '../security/admin-action.guard';
import { AuditedBy } from '../security/audit-context.decorator';
import { SignedInGuard } from '../security/signed-in.guard';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import { confirmProviderPage } from './confirm-provider-page';
import { disableProviderPage } from './disable-provider-page';
import { enableFormValuesOf, readEnableForm, recoverSinceOf } from './enable-provider-form';
import { enableProviderPage } from './enable-provider-page';
import { INTEGRATIONS_PATH, providerPath } from './integrations-list-page';
import {
  filterErrorsOf,
  filterFormValuesOf,
  filterInputOf,
  isFilterRefusal,
  readFilterForm,
} from './provider-filter-form';
import { providerFilterPage } from './provider-filter-page';
import { providerPage } from './provider-page';
import { providerSecretPage } from './provider-secret-page';
import { SECRET_OVERLAP_MS } from './secret-overlap';

const NOTICES: Readonly<Record<string, string>> = {
  enrolled: 'Provider enrolled. Send a test event to check that its messages arrive.',
  'test-sent': 'Test event queued. Its delivery and every attempt are listed below.',
  resent: 'Delivery queued again with a fresh retry schedule.',
  'filter-changed': 'Filter saved. Notifications decided from now on follow it.',
  disabled: 'Provider disabled. Its notifications are recorded as skipped until it is enabled.',
  enabled: 'Provider enabled. Notifications decided from now on are sent to it.',
};

/** The notice after enabling or recovering, saying how many deliveries were queued again. */
function recoveredNotice(notice: string, recovered: string | undefined): string | undefined {
  const count = Number(recovered);
  if (!Number.isSafeInteger(count) || count < 0) return NOTICES[notice];
  const queued = `${count} ${count === 1 ? 'delivery' : 'deliveries'} queued again in the order they were created.`;
  if (notice === 'enabled') return `Provider enabled; ${queued}`;
  if (notice === 'recovered') return `${queued[0].toUpperCase()}${queued.slice(1)}`;
  return NOTICES[notice];
}

/**
 * One webhook provider: its page and deliveries for everyone signed in; test events, secret
 * rotation, deletion and resends for workspace admins. A deleted or unknown provider is a 404.
 */
@Controller('settings/integrations/:id')
@UseGuards(SignedInGuard)
export class WebhookProviderController {
  constructor(
    @Inject(ShowWebhookProvider) private readonly showProvider: ShowWebhookProvider,
    @Inject(FindWebhookProvider) private readonly findProvider: FindWebhookProvider,
    @Inject(SendTestEvent) private readonly sendTestEvent: SendTestEvent,
    @Inject(RotateWebhookSecret) private readonly rotateSecret: RotateWebhookSecret,
    @Inject(DeleteWebhookProvider) private readonly deleteProvider: DeleteWebhookProvider,
    @Inject(ResendDelivery) private readonly resendDelivery: ResendDelivery,
    @Inject(ChangeProviderFilter) private readonly changeFilter: ChangeProviderFilter,
    @Inject(DisableWebhookProvider) private readonly disableProvider: DisableWebhookProvider,
    @Inject(EnableWebhookProvider) private readonly enableProvider: EnableWebhookProvider,
    @Inject(SECRET_OVERLAP_MS) private readonly overlapMs: number,
  ) {}

  @Get()
  async show(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
    @Query('notice') notice?: string,
    @Query('recovered') recovered?: string,
  ): Promise<WebResult> {
    const overview = await this.showProvider.execute({ providerId: id });
    const message = notice === undefined ? undefined : recoveredNotice(notice, recovered);
    return page(providerPage(viewer, overview, message));
  }

  @Post('test')
  @UseGuards(new AdminActionGuard('send test events'))
  async sendTest(@Param('id') id: string, @AuditedBy() audit: AuditContext): Promise<WebResult> {
    await this.sendTestEvent.execute({ providerId: id, now: Date.now() }, audit);
    return redirect(`${providerPath({ id })}?notice=test-sent`);
  }

  @Get('rotate')
  @UseGuards(new AdminActionGuard('rotate signing secrets'))
  async confirmRotate(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
  ): Promise<WebResult> {
    const provider = await this.findProvider.execute({ providerId: id });
    return page(confirmProviderPage(viewer, provider, 'rotate', this.overlapMs));
  }

  @Post('rotate')
  @UseGuards(new AdminActionGuard('rotate signing secrets'))
  async rotate(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    // The leaked-secret button: the replaced secret stops signing at once.
    const stopPreviousNow = body.previous === 'stop';
    const { provider, secret } = await this.rotateSecret.execute(
      { providerId: id, stopPreviousNow },
      audit,
    );
    return page(providerSecretPage(viewer, provider, secret, 'rotated'));
  }

  @Get('filter')
  @UseGuards(new AdminActionGuard('change provider filters'))
  async editFilter(@SignedInSession() viewer: Viewer, @Param('id') id: string): Promise<WebResult> {
    const provider = await this.findProvider.execute({ providerId: id });
    return page(providerFilterPage(viewer, provider, filterFormValuesOf(provider.filter)));
  }

  @Post('filter')
  @UseGuards(new AdminActionGuard('change provider filters'))
  async saveFilter(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const values = readFilterForm(body);
    try {
      await this.changeFilter.execute({ providerId: id, filter: filterInputOf(values) }, audit);
      return redirect(`${providerPath({ id })}?notice=filter-changed`);
    } catch (error) {
      if (!(error instanceof WebhookProviderError) || !isFilterRefusal(error)) throw error;
      const provider = await this.findProvider.execute({ providerId: id });
      const errors = filterErrorsOf(error);
      return page(providerFilterPage(viewer, provider, values, errors), httpStatusOf(error));
    }
  }

  @Get('disable')
  @UseGuards(new AdminActionGuard('disable webhook providers'))
  async confirmDisable(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
  ): Promise<WebResult> {
    const provider = await this.findProvider.execute({ providerId: id });
    return page(disableProviderPage(viewer, provider));
  }

  @Post('disable')
  @UseGuards(new AdminActionGuard('disable webhook providers'))
  async disable(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const reason = typeof body.reason === 'string' ? body.reason : '';
    await this.disableProvider.execute(
      { providerId: id, reason, disabledBy: viewer.session.user.email },
      audit,
    );
    return redirect(`${providerPath({ id })}?notice=disabled`);
  }

  @Get('enable')
  @UseGuards(new AdminActionGuard('enable webhook providers'))
  async confirmEnable(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
  ): Promise<WebResult> {
    const provider = await this.findProvider.execute({ providerId: id });
    return page(enableProviderPage(viewer, provider, enableFormValuesOf(provider, Date.now())));
  }

  @Post('enable')
  @UseGuards(new AdminActionGuard('enable webhook providers'))
  async enable(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const values = readEnableForm(body);
    const before = await this.findProvider.execute({ providerId: id });
    try {
      const recoverSince = recoverSinceOf(values);
      const { recovered } = await this.enableProvider.execute(
        { providerId: id, recoverSince },
        audit,
      );
      const notice = before.disabled === undefined ? 'recovered' : 'enabled';
      const count = recoverSince === undefined ? '' : `&recovered=${recovered}`;
      return redirect(`${providerPath({ id })}?notice=${notice}${count}`);
    } catch (error) {
      if (!(error instanceof WebhookProviderError) || error.field !== 'recoverSince') throw error;
      const refused = enableProviderPage(viewer, before, values, error.message);
      return page(refused, httpStatusOf(error));
    }
  }

  @Get('delete')
  @UseGuards(new AdminActionGuard('delete webhook providers'))
  async confirmDelete(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
  ): Promise<WebResult> {
    const provider = await this.findProvider.execute({ providerId: id });
    return page(confirmProviderPage(viewer, provider, 'delete', this.overlapMs));
  }

  @Post('delete')
  @UseGuards(new AdminActionGuard('delete webhook providers'))
  async delete(@Param('id') id: string, @AuditedBy() audit: AuditContext): Promise<WebResult> {
    await this.deleteProvider.execute({ providerId: id }, audit);
    return redirect(`${INTEGRATIONS_PATH}?notice=deleted`);
  }

  @Post('deliveries/:deliveryId/resend')
  @UseGuards(new AdminActionGuard('resend deliveries'))
  async resend(
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @AuditedBy() audit: AuditContext,
  ): Promise<WebResult> {
    const outcome = await this.resendDelivery.execute(
      { deliveryId, owner: { providerId: id } },
      audit,
    );
    // Already resent (from another tab): show the delivery as it is now.
    return redirect(`${providerPath({ id })}${outcome === 'resent' ? '?notice=resent' : ''}`);
  }
}
