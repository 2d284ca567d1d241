import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from '@vigil/config';
import { answerApiError } from './answer-api-error';

/** Errors of a Nest pipeline answered as answerApiError says. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    answerApiError(http.getResponse<Response>(), exception, {
      logger: this.logger,
      path: http.getRequest<Request>().path,
    });
  }
}
