import { Body, Controller, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { ApiTokenGuard, RequireScope, ScopeGuard } from '@vigil/auth';
import { ApiError } from '@vigil/http';
import type { ContractRecordPublisher } from '@vigil/kafka';
import { detectionEventParser, investigationParser, validateBatch } from './ingest-records';
import { CONTRACT_PUBLISHER, INGEST_LIMITS, type IngestLimits } from './ingest-limits';

function formatOf(req: Request): 'json' | 'ndjson' {
  if (req.is('application/x-ndjson')) return 'ndjson';
  if (req.is('application/json')) return 'json';
  throw new ApiError(
    415,
    'unsupported_media_type',
    'Send application/json (an array of records) or application/x-ndjson (one record per line)',
  );
}

@Controller('ingest/v1')
@UseGuards(ApiTokenGuard, ScopeGuard)
@RequireScope('detection', 'write')
export class IngestController {
  constructor(
    @Inject(CONTRACT_PUBLISHER) private readonly publisher: ContractRecordPublisher,
    @Inject(INGEST_LIMITS) private readonly limits: IngestLimits,
  ) {}

  @Post('detection-events')
  @HttpCode(202)
  async ingestDetectionEvents(@Req() req: Request, @Body() body: unknown) {
    const batch = validateBatch(
      body,
      formatOf(req),
      this.limits.maxRecords,
      detectionEventParser(Date.now()),
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
    const batch = validateBatch(body, formatOf(req), this.limits.maxRecords, investigationParser);
    await this.publisher.publishInvestigations(batch.accepted);
    return {
      accepted: batch.accepted.length,
      rejected: batch.rejected.length,
      errors: batch.rejected,
    };
  }
}
