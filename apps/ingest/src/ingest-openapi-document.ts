import { z } from 'zod';
import { detectionEventInput, investigationInput } from '@vigil/contracts';
import {
  bearerSecurityScheme,
  bodyErrorResponses,
  errorResponse,
  errorSchema,
  okHeaders,
  tokenErrorResponses,
} from '@vigil/http';

type JsonSchema = { properties: Record<string, object> } & Record<string, unknown>;

/**
 * A record as the contract accepts it, in OpenAPI 3.0 terms, with what a connector needs to
 * know of its fields: the contract's own schema is the source, so the two cannot differ.
 */
function recordSchema(schema: z.ZodType, descriptions: Record<string, string>): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input' }) as JsonSchema;
  for (const [field, description] of Object.entries(descriptions)) {
    json.properties[field] = { ...json.properties[field], description };
  }
  return json;
}

/** A batch of one kind of record: a JSON array (or one object), or NDJSON. */
function batchBody(record: string) {
  const ref = { $ref: `#/components/schemas/${record}` };
  return {
    required: true,
    content: {
      'application/json': {
        schema: { oneOf: [{ type: 'array', minItems: 1, items: ref }, ref] },
      },
      'application/x-ndjson': {
        schema: {
          type: 'string',
          description: `One ${record} as JSON per line; a line that is not JSON is rejected as its record`,
        },
      },
    },
  };
}

const batchResponses = {
  '202': {
    description:
      'Every valid record is accepted onto the log; the invalid ones are listed by their index ' +
      'in the batch, each with every reason',
    headers: okHeaders,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchResult' } } },
  },
  '400': errorResponse(
    'invalid_request: a body that is neither a JSON array nor an object, an empty batch, or a ' +
      'batch with no valid record (details.rejected lists each record with its reasons)',
  ),
  ...bodyErrorResponses(
    'application/json or application/x-ndjson',
    'the body exceeds INGEST_MAX_BODY_BYTES, or the batch holds more than INGEST_MAX_RECORDS ' +
      'records (details: max_records, records)',
  ),
  ...tokenErrorResponses('the token lacks Detection at Read and write'),
};

/**
 * The OpenAPI description of /ingest/v1, served at /ingest/v1/openapi.json. The e2e tests check
 * the ingest answers against it, and the records' schemas come from the contract.
 */
export const ingestOpenApiDocument = {
  openapi: '3.0.3',
  info: {
    title: 'Vigil ingest API',
    version: '1.0.0',
    description:
      'Send detection events and investigation reports to Vigil, in batches of JSON or NDJSON. ' +
      'Every request carries `Authorization: Bearer <API_TOKEN>` of a token with Detection at ' +
      'Read and write. Valid records are accepted and invalid ones reported in the same answer; ' +
      'resending a batch is safe: events are de-duplicated by id per detection.',
  },
  servers: [{ url: '/' }],
  security: [{ bearer: [] }],
  paths: {
    '/ingest/v1/detection-events': {
      post: {
        operationId: 'ingestDetectionEvents',
        summary: 'Send a batch of detection events',
        requestBody: batchBody('DetectionEvent'),
        responses: batchResponses,
      },
    },
    '/ingest/v1/investigations': {
      post: {
        operationId: 'ingestInvestigations',
        summary: 'Send a batch of investigation reports',
        requestBody: batchBody('Investigation'),
        responses: batchResponses,
      },
    },
  },
  components: {
    securitySchemes: bearerSecurityScheme,
    schemas: {
      Error: errorSchema,
      DetectionEvent: recordSchema(detectionEventInput, {
        id: "The event's id; an id the detection already has is dropped as a resend",
        detection_id: 'The detection the event belongs to; its events are processed in order',
        happened:
          'ISO 8601 UTC (`2025-05-01T12:00:00.123Z`) or epoch milliseconds, between 2000-01-01 ' +
          'and one day from now',
        employee_email: 'Stored lowercased',
        description: 'Derived from issue_type and asset_name when absent',
      }),
      Investigation: recordSchema(investigationInput, {
        id: 'The investigation; a report with the same id replaces the earlier one',
        status: 'For example `completed`',
        outcome: 'For example `confirmed_risk` or `no_risk`',
        updated_at: 'ISO 8601 UTC or epoch milliseconds',
      }),
      BatchResult: {
        type: 'object',
        additionalProperties: false,
        required: ['accepted', 'rejected', 'errors'],
        properties: {
          accepted: { type: 'integer', description: 'Records accepted onto the log' },
          rejected: { type: 'integer', description: 'Records refused, each listed in errors' },
          errors: { type: 'array', items: { $ref: '#/components/schemas/RecordRejection' } },
        },
      },
      RecordRejection: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'errors'],
        properties: {
          index: { type: 'integer', description: "The record's position in the batch, from 0" },
          errors: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['path', 'message'],
              properties: {
                path: {
                  type: 'string',
                  description: 'The field, dotted (`person.email`), or `(record)` for the whole',
                },
                message: { type: 'string' },
              },
            },
          },
        },
      },
    },
  },
} as const;
