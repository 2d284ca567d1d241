import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiError, resourceId } from '@vigil/http';
import type { EventReadModel } from '@vigil/search';
import { QueryApiAccess } from './query-api-access';
import { API_LINKS, type ApiLinks } from './api-links.token';
import { EVENT_READ_MODEL } from './event-read-model.token';

@Controller('api-key/v1/investigations')
@QueryApiAccess()
export class InvestigationsController {
  constructor(
    @Inject(EVENT_READ_MODEL) private readonly readModel: EventReadModel,
    @Inject(API_LINKS) private readonly links: ApiLinks,
  ) {}

  @Get(':investigationId')
  async get(@Param('investigationId') investigationId: string) {
    const report = await this.readModel.getInvestigation(
      resourceId(investigationId, 'investigation_id'),
    );
    if (!report) throw ApiError.notFound('Investigation', investigationId);
    return {
      ...report,
      action_url: `${this.links.appUrl}/u/investigations/${encodeURIComponent(investigationId)}`,
    };
  }
}
