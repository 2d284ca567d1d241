import {
  bearerSecurityScheme,
  bodyErrorResponses,
  errorResponse,
  errorSchema,
  okHeaders,
  tokenErrorResponses,
} from '@vigil/http';

const standardErrors = tokenErrorResponses('the token lacks Detection at Read-only or above');
const bodyErrors = bodyErrorResponses('application/json');

const eventsRequest = {
  type: 'object',
  additionalProperties: false,
  properties: {
    query: {
      type: 'string',
      maxLength: 8192,
      description:
        "Filter expression, e.g. `risk_score > 5 AND source = 'okta'`. Fields: id, employee_email, " +
        'happened, risk_score, source, allowlisted, high_prevalence. Operators: = != < > <= >= IN NOT, ' +
        "parentheses; AND binds tighter than OR; '' escapes a quote. Empty matches everything.",
    },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    cursor: {
      type: 'string',
      nullable: true,
      description: 'pagination.next_cursor of the previous page',
    },
  },
};

const eventsResponse = {
  description: 'One page of events, newest first (happened desc, then id asc)',
  headers: okHeaders,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/EventList' } } },
};

/**
 * The OpenAPI description of /api-key/v1, served at /api-key/v1/openapi.json. The e2e tests
 * check responses against these shapes, so the document cannot drift from the endpoints.
 */
export const openApiDocument = {
  openapi: '3.0.3',
  info: {
    title: 'Vigil query API',
    version: '1.0.0',
    description:
      'Read detection events, detections, affected users and investigations. Every request carries ' +
      '`Authorization: Bearer <API_TOKEN>`; tokens are created in the web application.',
  },
  servers: [{ url: '/' }],
  security: [{ bearer: [] }],
  paths: {
    '/api-key/v1/events': {
      post: {
        operationId: 'searchEvents',
        summary: 'Search events with the query language',
        requestBody: { required: true, content: { 'application/json': { schema: eventsRequest } } },
        responses: {
          '200': eventsResponse,
          '400': errorResponse(
            'invalid_query (with position, line, column, expected, found) or invalid_request',
          ),
          ...bodyErrors,
          ...standardErrors,
        },
      },
    },
    '/api-key/v1/detections/{detection_id}': {
      get: {
        operationId: 'getDetection',
        summary: 'Detection details',
        parameters: [{ $ref: '#/components/parameters/DetectionId' }],
        responses: {
          '200': {
            description: 'The detection; every figure is exact',
            headers: okHeaders,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Detection' } } },
          },
          '400': errorResponse('invalid_request: the id is malformed'),
          '404': errorResponse('not_found'),
          ...standardErrors,
        },
      },
    },
    '/api-key/v1/detections/{detection_id}/events': {
      post: {
        operationId: 'searchDetectionEvents',
        summary: 'Events of one detection; an empty object returns the newest page',
        parameters: [{ $ref: '#/components/parameters/DetectionId' }],
        requestBody: {
          required: false,
          content: { 'application/json': { schema: eventsRequest } },
        },
        responses: {
          '200': eventsResponse,
          '400': errorResponse('invalid_query or invalid_request'),
          '404': errorResponse('not_found'),
          ...bodyErrors,
          ...standardErrors,
        },
      },
    },
    '/api-key/v1/detections/{detection_id}/users': {
      get: {
        operationId: 'listDetectionUsers',
        summary: 'Affected users of a detection',
        parameters: [
          { $ref: '#/components/parameters/DetectionId' },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
          },
          {
            name: 'cursor',
            in: 'query',
            description: 'pagination.next_cursor of the previous page',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: 'One page of users, ordered by email (lowercased), one item per email',
            headers: okHeaders,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/UserList' } } },
          },
          '400': errorResponse('invalid_request: bad limit or cursor, or an unknown parameter'),
          '404': errorResponse('not_found'),
          ...standardErrors,
        },
      },
    },
    '/api-key/v1/investigations/{investigation_id}': {
      get: {
        operationId: 'getInvestigation',
        summary: 'The full investigation report',
        parameters: [
          { name: 'investigation_id', in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The report',
            headers: okHeaders,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Investigation' } },
            },
          },
          '400': errorResponse('invalid_request: the id is malformed'),
          '404': errorResponse('not_found'),
          ...standardErrors,
        },
      },
    },
  },
  components: {
    securitySchemes: bearerSecurityScheme,
    parameters: {
      DetectionId: { name: 'detection_id', in: 'path', required: true, schema: { type: 'string' } },
    },
    schemas: {
      Error: errorSchema,
      Event: {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'issue_type',
          'employee_email',
          'employee_name',
          'asset_name',
          'happened',
          'risk_score',
          'source',
          'high_prevalence',
          'allowlisted',
          'detection_id',
          'detection_name',
          'description',
        ],
        properties: {
          id: { type: 'string' },
          issue_type: { type: 'string' },
          employee_email: { type: 'string', description: 'As sent by the connector' },
          employee_name: { type: 'string' },
          asset_name: { type: 'string' },
          happened: {
            type: 'string',
            format: 'date-time',
            description: 'ISO 8601 UTC with milliseconds, e.g. 2025-05-01T12:00:00.123Z',
          },
          risk_score: { type: 'number' },
          source: { type: 'string' },
          high_prevalence: { type: 'boolean' },
          allowlisted: { type: 'boolean' },
          detection_id: { type: 'string' },
          detection_name: { type: 'string' },
          description: { type: 'string' },
        },
      },
      Pagination: {
        type: 'object',
        additionalProperties: false,
        required: ['count', 'next_cursor'],
        properties: {
          count: { type: 'integer', description: 'Number of items in this page' },
          next_cursor: {
            type: 'string',
            nullable: true,
            description: 'Pass as `cursor` for the next page; null on the last page',
          },
        },
      },
      EventList: {
        type: 'object',
        additionalProperties: false,
        required: ['items', 'pagination'],
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/Event' } },
          pagination: { $ref: '#/components/schemas/Pagination' },
        },
      },
      Detection: {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'name',
          'event_count',
          'user_count',
          'first_seen',
          'last_seen',
          'max_risk_score',
          'notification',
          'action_url',
        ],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          event_count: { type: 'integer' },
          user_count: { type: 'integer', description: 'Distinct employee emails, exact' },
          first_seen: { type: 'string', format: 'date-time' },
          last_seen: { type: 'string', format: 'date-time' },
          max_risk_score: { type: 'number' },
          notification: {
            type: 'object',
            additionalProperties: false,
            description: 'The notification settings in force for the detection',
            required: [
              'configuration',
              'state',
              'snoozed_until',
              'frequency',
              'email_enabled',
              'webhook_enabled',
            ],
            properties: {
              configuration: { type: 'string', enum: ['global', 'custom'] },
              state: { type: 'string', enum: ['active', 'disabled', 'snoozed'] },
              snoozed_until: { type: 'string', format: 'date-time', nullable: true },
              frequency: { type: 'string', enum: ['batch', 'immediate', 'threshold'] },
              email_enabled: { type: 'boolean' },
              webhook_enabled: { type: 'boolean' },
            },
          },
          action_url: { type: 'string', format: 'uri' },
        },
      },
      AffectedUser: {
        type: 'object',
        additionalProperties: false,
        required: ['employee_email', 'employee_name', 'event_count', 'max_risk_score', 'last_seen'],
        properties: {
          employee_email: { type: 'string', description: 'Lowercased' },
          employee_name: { type: 'string', description: 'As on the newest event' },
          event_count: { type: 'integer' },
          max_risk_score: { type: 'number' },
          last_seen: { type: 'string', format: 'date-time' },
        },
      },
      UserList: {
        type: 'object',
        additionalProperties: false,
        required: ['items', 'pagination'],
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/AffectedUser' } },
          pagination: { $ref: '#/components/schemas/Pagination' },
        },
      },
      Investigation: {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'status',
          'outcome',
          'headline',
          'summary',
          'confidence',
          'recommended_action',
          'risk_score',
          'findings',
          'person',
          'detection',
          'updated_at',
          'action_url',
        ],
        properties: {
          id: { type: 'string' },
          status: { type: 'string', example: 'completed' },
          outcome: { type: 'string', nullable: true, example: 'confirmed_risk' },
          headline: { type: 'string' },
          summary: { type: 'string', description: 'AI-generated summary' },
          confidence: { type: 'string' },
          recommended_action: { type: 'string' },
          risk_score: { type: 'number' },
          findings: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['title', 'description', 'evidence'],
              properties: {
                title: { type: 'string' },
                description: { type: 'string' },
                evidence: { type: 'array', items: { type: 'string' } },
              },
            },
          },
          person: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'email', 'role', 'department', 'manager'],
            properties: {
              name: { type: 'string' },
              email: { type: 'string' },
              role: { type: 'string', nullable: true },
              department: { type: 'string', nullable: true },
              manager: { type: 'string', nullable: true },
            },
          },
          detection: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'name'],
            properties: { id: { type: 'string' }, name: { type: 'string' } },
          },
          updated_at: { type: 'string', format: 'date-time' },
          action_url: { type: 'string', format: 'uri' },
        },
      },
    },
  },
} as const;
