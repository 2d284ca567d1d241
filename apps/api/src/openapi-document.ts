/**
 * The OpenAPI description of /api-key/v1, served at /api-key/v1/openapi.json. The e2e tests
 * check responses against these shapes, so the document cannot drift from the endpoints.
 */
const errorResponse = (description: string) => ({
  description,
  headers: { 'x-request-id': { schema: { type: 'string' } } },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const standardErrors = {
  '401': errorResponse('missing_token, invalid_token or token_expired (with WWW-Authenticate)'),
  '403': errorResponse('insufficient_scope: the token lacks Detection at Read-only or above'),
  '429': errorResponse('rate_limited: too many requests for this token (with Retry-After)'),
  '503': errorResponse('backend_unavailable: a backend cannot answer now (with Retry-After)'),
};

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
  content: { 'application/json': { schema: { $ref: '#/components/schemas/EventList' } } },
};

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
        summary: 'Search events with the query language',
        requestBody: { required: true, content: { 'application/json': { schema: eventsRequest } } },
        responses: {
          '200': eventsResponse,
          '400': errorResponse(
            'invalid_query (with position, line, column, expected, found) or invalid_request',
          ),
          '413': errorResponse('payload_too_large'),
          '415': errorResponse('unsupported_media_type'),
          ...standardErrors,
        },
      },
    },
    '/api-key/v1/detections/{detection_id}': {
      get: {
        summary: 'Detection details',
        parameters: [{ $ref: '#/components/parameters/DetectionId' }],
        responses: {
          '200': {
            description: 'The detection',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Detection' } } },
          },
          '404': errorResponse('not_found'),
          ...standardErrors,
        },
      },
    },
    '/api-key/v1/detections/{detection_id}/events': {
      post: {
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
          ...standardErrors,
        },
      },
    },
    '/api-key/v1/detections/{detection_id}/users': {
      get: {
        summary: 'Affected users of a detection',
        parameters: [
          { $ref: '#/components/parameters/DetectionId' },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 1000, default: 1000 },
          },
        ],
        responses: {
          '200': {
            description: 'Users ordered by email',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/UserList' } } },
          },
          '404': errorResponse('not_found'),
          ...standardErrors,
        },
      },
    },
    '/api-key/v1/investigations/{investigation_id}': {
      get: {
        summary: 'The full investigation report',
        parameters: [
          { name: 'investigation_id', in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The report',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Investigation' } },
            },
          },
          '404': errorResponse('not_found'),
          ...standardErrors,
        },
      },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'vgk1-…' } },
    parameters: {
      DetectionId: { name: 'detection_id', in: 'path', required: true, schema: { type: 'string' } },
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message', 'details'],
            properties: {
              code: { type: 'string' },
              message: { type: 'string' },
              details: { type: 'object' },
            },
          },
        },
      },
      Event: {
        type: 'object',
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
        ],
        properties: {
          id: { type: 'string' },
          issue_type: { type: 'string' },
          employee_email: { type: 'string' },
          employee_name: { type: 'string' },
          asset_name: { type: 'string' },
          happened: {
            type: 'string',
            format: 'date-time',
            description: 'ISO 8601 UTC with milliseconds',
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
      EventList: {
        type: 'object',
        required: ['items', 'pagination'],
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/Event' } },
          pagination: {
            type: 'object',
            required: ['count', 'next_cursor'],
            properties: {
              count: { type: 'integer' },
              next_cursor: { type: 'string', nullable: true },
            },
          },
        },
      },
      Detection: {
        type: 'object',
        required: [
          'id',
          'name',
          'event_count',
          'user_count',
          'first_seen',
          'last_seen',
          'max_risk_score',
          'action_url',
        ],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          event_count: { type: 'integer' },
          user_count: { type: 'integer' },
          first_seen: { type: 'string', format: 'date-time' },
          last_seen: { type: 'string', format: 'date-time' },
          max_risk_score: { type: 'number' },
          action_url: { type: 'string', format: 'uri' },
        },
      },
      UserList: {
        type: 'object',
        required: ['items', 'pagination'],
        properties: {
          items: {
            type: 'array',
            items: {
              type: 'object',
              required: [
                'employee_email',
                'employee_name',
                'event_count',
                'max_risk_score',
                'last_seen',
              ],
              properties: {
                employee_email: { type: 'string' },
                employee_name: { type: 'string' },
                event_count: { type: 'integer' },
                max_risk_score: { type: 'number' },
                last_seen: { type: 'string', format: 'date-time' },
              },
            },
          },
          pagination: { type: 'object', properties: { count: { type: 'integer' } } },
        },
      },
      Investigation: {
        type: 'object',
        required: [
          'id',
          'status',
          'headline',
          'summary',
          'confidence',
          'recommended_action',
          'findings',
          'person',
          'detection',
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
              properties: {
                title: { type: 'string' },
                description: { type: 'string' },
                evidence: { type: 'array', items: { type: 'string' } },
              },
            },
          },
          person: {
            type: 'object',
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
            properties: { id: { type: 'string' }, name: { type: 'string' } },
          },
          updated_at: { type: 'string', format: 'date-time' },
          action_url: { type: 'string', format: 'uri' },
        },
      },
    },
  },
} as const;
