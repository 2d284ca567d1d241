import { Controller, Get } from '@nestjs/common';
import { ingestOpenApiDocument } from './ingest-openapi-document';

/** The ingest API's OpenAPI document, served without a token like the query API's. */
@Controller('ingest/v1')
export class IngestOpenApiController {
  @Get('openapi.json')
  document() {
    return ingestOpenApiDocument;
  }
}
