import { Controller, Get } from '@nestjs/common';
import { openApiDocument } from './openapi-document';

@Controller('api-key/v1')
export class OpenApiController {
  @Get('openapi.json')
  document() {
    return openApiDocument;
  }
}
