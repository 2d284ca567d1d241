import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { ApiTokenGuard, RequireScope, ScopeGuard } from '@vigil/auth';
import { queryEvents, type EventReadModel } from '@vigil/search';
import { EVENT_READ_MODEL } from './read-model.token';

@Controller('api-key/v1')
@UseGuards(ApiTokenGuard, ScopeGuard)
@RequireScope('detection', 'read')
export class EventsController {
  constructor(@Inject(EVENT_READ_MODEL) private readonly readModel: EventReadModel) {}

  @Post('events')
  @HttpCode(200)
  search(@Body() body: unknown) {
    return queryEvents(this.readModel, body ?? {});
  }
}
