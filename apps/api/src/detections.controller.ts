import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiTokenGuard, RequireScope, ScopeGuard } from '@vigil/auth';
import { ApiError, resourceId } from '@vigil/http';
import { MAX_PAGE_SIZE, queryEvents, type EventReadModel } from '@vigil/search';
import { API_LINKS, EVENT_READ_MODEL, type ApiLinks } from './read-model.token';

@Controller('api-key/v1/detections')
@UseGuards(ApiTokenGuard, ScopeGuard)
@RequireScope('detection', 'read')
export class DetectionsController {
  constructor(
    @Inject(EVENT_READ_MODEL) private readonly readModel: EventReadModel,
    @Inject(API_LINKS) private readonly links: ApiLinks,
  ) {}

  @Get(':detectionId')
  async get(@Param('detectionId') detectionId: string) {
    const summary = await this.readModel.getDetection(resourceId(detectionId, 'detection_id'));
    if (!summary) throw ApiError.notFound('Detection', detectionId);
    return {
      ...summary,
      action_url: `${this.links.appUrl}/u/detections/${encodeURIComponent(detectionId)}`,
    };
  }

  @Post(':detectionId/events')
  @HttpCode(200)
  async events(@Param('detectionId') detectionId: string, @Body() body: unknown) {
    resourceId(detectionId, 'detection_id');
    const page = await queryEvents(this.readModel, body ?? {}, detectionId);
    if (page.items.length === 0 && !(await this.readModel.getDetection(detectionId))) {
      throw ApiError.notFound('Detection', detectionId);
    }
    return page;
  }

  @Get(':detectionId/users')
  async users(@Param('detectionId') detectionId: string, @Query('limit') limit?: string) {
    resourceId(detectionId, 'detection_id');
    const size = limit === undefined ? MAX_PAGE_SIZE : Number(limit);
    if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
      throw ApiError.badRequest(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`, {
        field: 'limit',
      });
    }
    const items = await this.readModel.listAffectedUsers(detectionId, size);
    if (items.length === 0) throw ApiError.notFound('Detection', detectionId);
    return { items, pagination: { count: items.length } };
  }
}
