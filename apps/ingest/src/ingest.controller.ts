import {
  Body,
  Controller,
  HttpCode,
  Inject,
  Post,
  Req,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { Request } from 'express';
import { ApiTokenGuard, RequireScope, ScopeGuard, TokenRateLimitGuard } from '@vigil/auth';
import { ApiError, ReadBodyInterceptor } from '@vigil/http';
import type { ContractRecordPublisher } from '@vigil/kafka';
import type { IngestInstruments, IngestKind } from '@vigil/ops';
import {
  detectionEventParser,
  investigationParser,
  validateBatch,
  type ValidatedBatch,
} from './validate-batch';
import { CONTRACT_PUBLISHER } from './contract-publisher.token';
import { INGEST_INSTRUMENTS } from './ingest-instruments.token';
import { INGEST_LIMITS, type IngestLimits } from './ingest-limits.token';

function formatOf(req: Request): 'json' | 'ndjson' {
  if (req.is('application/x-ndjson')) return 'ndjson';
  if (req.is('application/json')) return 'json';
  throw new ApiError(
    415,
    'unsupported_media_type',
    'Send application/json (an array of records) or application/x-ndjson (one record per line)',
  );
}

// The token, its budget and its scope are checked from the headers; only then is the body read.
@Controller('ingest/v1')
@UseGuards(ApiTokenGuard, TokenRateLimitGuard, ScopeGuard)
@RequireScope('detection', 'write')
@UseInterceptors(ReadBodyInterceptor)
export class IngestController {
  constructor(
    @Inject(CONTRACT_PUBLISHER) private readonly publisher: ContractRecordPublisher,
    @Inject(INGEST_LIMITS) private readonly limits: IngestLimits,
    @Inject(INGEST_INSTRUMENTS) private readonly instruments: IngestInstruments,
  ) {}

  @Post('detection-events')
  @HttpCode(202)
  async ingestDetectionEvents(@Req() req: Request, @Body() body: unknown) {
    const batch = this.counted('detection_event', () =>
      validateBatch(body, formatOf(req), this.limits.maxRecords, detectionEventParser(Date.now())),
    );
    await this.publisher.publishDetectionEvents(batch.accepted);
    return {
      accepted: batch.accepted.length,
      rejected: batch.rejected.length,
      errors: batch.rejected,
    };
  }

  @Post('investigations')
  @HttpCode(202)
  async ingestInvestigations(@Req() req: Request, @Body() body: unknown) {
    const batch = this.counted('investigation', () =>
      validateBatch(body, formatOf(req), this.limits.maxRecords, investigationParser),
    );
    await this.publisher.publishInvestigations(batch.accepted);
    return {
      accepted: batch.accepted.length,
      rejected: batch.rejected.length,
      errors: batch.rejected,
    };
  }

  /** Counts a batch's records accepted and rejected, a batch with none valid included. */
  private counted<T>(kind: IngestKind, validate: () => ValidatedBatch<T>): ValidatedBatch<T> {
    try {
      const batch = validate();
      this.instruments.received(kind, batch.accepted.length, batch.rejected.length);
      return batch;
    } catch (error) {
      const rejected = error instanceof ApiError ? error.details.rejected : undefined;
      if (Array.isArray(rejected)) this.instruments.received(kind, 0, rejected.length);
      throw error;
    }
  }
}
