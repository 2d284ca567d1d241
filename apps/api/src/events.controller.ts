import { Body, Controller, HttpCode, Inject, Post, UseInterceptors } from '@nestjs/common';
import { queryEvents, type EventReadModel } from '@vigil/search';
import { CountQueryErrors } from './count-query-errors';
import { QueryApiAccess } from './query-api-access';
import { EVENT_READ_MODEL } from './event-read-model.token';

@Controller('api-key/v1')
@QueryApiAccess()
export class EventsController {
  constructor(@Inject(EVENT_READ_MODEL) private readonly readModel: EventReadModel) {}

  @Post('events')
  @HttpCode(200)
  @UseInterceptors(CountQueryErrors)
  search(@Body() body: unknown) {
    return queryEvents(this.readModel, body ?? {});
  }
}
