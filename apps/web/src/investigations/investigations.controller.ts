import {
  Controller,
  Get,
  Inject,
  NotFoundException,
  Param,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { Response } from 'express';
import { type EventReadModel } from '@vigil/search';
import { EVENT_READ_MODEL } from '../detections/event-read-model.token';
import { SignedInGuard } from '../security/signed-in.guard';
import { type WebRequest } from '../security/web-request';
import { sendPage } from '../views/send-page';
import { investigationPage } from './investigation-page';

/** An investigation report, the `action_url` of investigation webhooks (SPEC.md §6.3). */
@Controller('u/investigations')
@UseGuards(SignedInGuard)
export class InvestigationsController {
  constructor(@Inject(EVENT_READ_MODEL) private readonly readModel: EventReadModel) {}

  @Get(':id')
  async show(@Req() req: WebRequest, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const report = await this.readModel.getInvestigation(id);
    if (report === null) throw new NotFoundException('No such investigation');
    sendPage(res, investigationPage(req.auth!, req.csrfToken, report));
  }
}
