import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';

/**
 * What the Nest application serves: the OpenAPI document, and the error answer of any request
 * no route takes. The query endpoints are answered before it (serveQueryRoutes).
 */
@Module({ controllers: [OpenApiController] })
export class ApiModule {}
