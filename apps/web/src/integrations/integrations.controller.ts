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
  DeliveryError,
  DeliveryService,
  WebhookProviderError,
  WebhookProviderService,
  type DeliveryView,
  type WebhookProviderView,
} from '@vigil/control-plane';
import { AdminActionGuard } from '../security/admin-action.guard';
import { SignedInGuard } from '../security/signed-in.guard';
import { type WebRequest } from '../security/web-request';
import { sendPage } from '../views/send-page';
import {
  INTEGRATIONS_PATH,
  confirmProviderPage,
  enrollProviderPage,
  integrationsListPage,
  providerPage,
  providerSecretPage,
  secretGonePage,
} from './integration-pages';
import { SendTestEvent } from './send-test-event';
import {
  EMPTY_PROVIDER_FORM,
  checkProviderForm,
  providerErrorOf,
  readProviderForm,
} from './webhook-provider-form';

const NOTICES: Readonly<Record<string, string>> = {
  deleted: 'Webhook provider deleted. Vigil no longer sends to it.',
  'test-sent': 'Test event queued. Its delivery and every attempt are listed below.',
  resent: 'Delivery queued again with a fresh retry schedule.',
};

/** How many recent deliveries are read to find each provider's latest, for the list. */
const RECENT_DELIVERIES = 500;
const DELIVERIES_PER_PROVIDER = 20;

/**
 * Settings → Integrations: webhook providers and their deliveries. Everyone signed in may look;
 * enrolling, rotating, deleting, test events and resends are for workspace admins. The provider
 * rules (SSRF policy included) are the WebhookProviderService's, configured like the notifier's.
 */
@Controller('settings/integrations')
@UseGuards(SignedInGuard)
export class IntegrationsController {
  constructor(
    @Inject(WebhookProviderService) private readonly providers: WebhookProviderService,
    @Inject(DeliveryService) private readonly deliveries: DeliveryService,
    @Inject(SendTestEvent) private readonly testEvents: SendTestEvent,
  ) {}

  @Get()
  async list(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('notice') notice?: string,
  ): Promise<void> {
    const [providers, recent] = await Promise.all([
      this.providers.list(),
      this.deliveries.list({ limit: RECENT_DELIVERIES }),
    ]);
    const latest = new Map<string, DeliveryView>();
    for (const delivery of recent) {
      if (delivery.channel === 'webhook' && !latest.has(delivery.target)) {
        latest.set(delivery.target, delivery);
      }
    }
    sendPage(
      res,
      integrationsListPage({
        session: req.auth!,
        csrfToken: req.csrfToken,
        providers,
        latest,
        notice: notice === undefined ? undefined : NOTICES[notice],
      }),
    );
  }

  @Get('new')
  @UseGuards(new AdminActionGuard('enroll webhook providers'))
  form(@Req() req: WebRequest, @Res() res: Response): void {
    sendPage(res, enrollProviderPage(req.auth!, req.csrfToken, EMPTY_PROVIDER_FORM));
  }

  @Post()
  @UseGuards(new AdminActionGuard('enroll webhook providers'))
  async enroll(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const values = readProviderForm((req.body ?? {}) as Record<string, unknown>);
    const checked = checkProviderForm(values);
    if (!checked.ok) {
      return sendPage(
        res,
        enrollProviderPage(req.auth!, req.csrfToken, values, checked.errors),
        422,
      );
    }
    try {
      const { provider, secret } = await this.providers.enroll(checked.command);
      sendPage(
        res,
        providerSecretPage(req.auth!, req.csrfToken, provider, secret, 'enrolled'),
        201,
      );
    } catch (error) {
      if (!(error instanceof WebhookProviderError)) throw error;
      const errors = providerErrorOf(error);
      sendPage(res, enrollProviderPage(req.auth!, req.csrfToken, values, errors), 422);
    }
  }

  /** Where the secret page's history entry points once the secret has been shown. */
  @Get('secret-shown')
  secretShown(@Req() req: WebRequest, @Res() res: Response): void {
    sendPage(res, secretGonePage(req.auth!, req.csrfToken));
  }

  @Get(':id')
  async show(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Param('id') id: string,
    @Query('notice') notice?: string,
  ): Promise<void> {
    const provider = await this.find(id);
    const recent = await this.deliveries.list({
      channel: 'webhook',
      target: provider.id,
      limit: DELIVERIES_PER_PROVIDER,
    });
    const deliveries = await Promise.all(
      recent.map(async (delivery) => ({
        delivery,
        attempts: await this.deliveries.attempts(delivery.id),
      })),
    );
    sendPage(
      res,
      providerPage({
        session: req.auth!,
        csrfToken: req.csrfToken,
        provider,
        deliveries,
        notice: notice === undefined ? undefined : NOTICES[notice],
      }),
    );
  }

  @Post(':id/test')
  @UseGuards(new AdminActionGuard('send test events'))
  async sendTest(@Res() res: Response, @Param('id') id: string): Promise<void> {
    const provider = await this.find(id);
    await this.testEvents.execute(provider);
    res.redirect(303, `${INTEGRATIONS_PATH}/${provider.id}?notice=test-sent`);
  }

  @Get(':id/rotate')
  @UseGuards(new AdminActionGuard('rotate signing secrets'))
  async confirmRotate(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const provider = await this.find(id);
    sendPage(res, confirmProviderPage(req.auth!, req.csrfToken, provider, 'rotate'));
  }

  @Post(':id/rotate')
  @UseGuards(new AdminActionGuard('rotate signing secrets'))
  async rotate(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    await this.find(id);
    const { provider, secret } = await this.providers
      .rotateSecret(id)
      .catch((error: unknown) => notFoundIfMissing(error));
    sendPage(res, providerSecretPage(req.auth!, req.csrfToken, provider, secret, 'rotated'));
  }

  @Get(':id/delete')
  @UseGuards(new AdminActionGuard('delete webhook providers'))
  async confirmDelete(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const provider = await this.find(id);
    sendPage(res, confirmProviderPage(req.auth!, req.csrfToken, provider, 'delete'));
  }

  @Post(':id/delete')
  @UseGuards(new AdminActionGuard('delete webhook providers'))
  async delete(@Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.find(id);
    await this.providers.delete(id).catch((error: unknown) => notFoundIfMissing(error));
    res.redirect(303, `${INTEGRATIONS_PATH}?notice=deleted`);
  }

  @Post(':id/deliveries/:deliveryId/resend')
  @UseGuards(new AdminActionGuard('resend deliveries'))
  async resend(
    @Res() res: Response,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    const provider = await this.find(id);
    const delivery = await this.deliveries.find(deliveryId);
    if (delivery === null || delivery.target !== provider.id) {
      throw new NotFoundException('No such delivery');
    }
    let notice = '?notice=resent';
    try {
      await this.deliveries.resend(deliveryId);
    } catch (error) {
      // Already resent (from another tab): show the delivery as it is now.
      if (!(error instanceof DeliveryError) || error.code !== 'not_dead') throw error;
      notice = '';
    }
    res.redirect(303, `${INTEGRATIONS_PATH}/${provider.id}${notice}`);
  }

  /** An enrolled provider; a deleted or unknown one is a 404. */
  private async find(id: string): Promise<WebhookProviderView> {
    const provider = (await this.providers.list()).find((p) => p.id === id);
    if (provider === undefined) throw new NotFoundException('No such webhook provider');
    return provider;
  }
}

function notFoundIfMissing(error: unknown): never {
  if (error instanceof WebhookProviderError && error.code === 'not_found') {
    throw new NotFoundException('No such webhook provider');
  }
  throw error;
}
