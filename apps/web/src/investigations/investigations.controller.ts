import { Controller, Get, Inject, Param, UseGuards } from '@nestjs/common';
import { ShowInvestigation } from '@vigil/workspace';
import { page, type WebResult } from '../responses/web-result';
import { SignedInGuard } from '../security/signed-in.guard';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import { investigationPage } from './investigation-page';

/** An investigation report, the `action_url` of investigation webhooks (SPEC.md §6.3). */
@Controller('u/investigations')
@UseGuards(SignedInGuard)
export class InvestigationsController {
  constructor(@Inject(ShowInvestigation) private readonly showInvestigation: ShowInvestigation) {}

  @Get(':id')
  async show(@SignedInSession() viewer: Viewer, @Param('id') id: string): Promise<WebResult> {
    const report = await this.showInvestigation.execute({ investigationId: id });
    return page(investigationPage(viewer, report));
  }
}
