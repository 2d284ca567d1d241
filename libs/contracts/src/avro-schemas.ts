/**
 * Avro schemas of the connector-facing topics. Changes must stay BACKWARD compatible: add
 * fields only with defaults, never remove or retype one (the compatibility spec checks this).
 */
export const detectionEventSchema = {
  type: 'record',
  name: 'DetectionEvent',
  namespace: 'io.vigil.detections.v1',
  doc: 'One finding about a person and an asset, attached to a detection.',
  fields: [
    { name: 'id', type: 'string', doc: 'Event id; a resend with the same id is the same event.' },
    { name: 'detection_id', type: 'string' },
    { name: 'detection_name', type: 'string' },
    { name: 'issue_type', type: 'string' },
    { name: 'employee_email', type: 'string' },
    { name: 'employee_name', type: 'string' },
    { name: 'asset_name', type: 'string' },
    { name: 'happened', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'risk_score', type: 'double' },
    { name: 'source', type: 'string' },
    { name: 'high_prevalence', type: 'boolean' },
    { name: 'allowlisted', type: 'boolean' },
    {
      name: 'description',
      type: ['null', 'string'],
      default: null,
      doc: 'Human-readable description; derived from issue_type and asset_name when absent.',
    },
  ],
} as const;

const findingSchema = {
  type: 'record',
  name: 'Finding',
  fields: [
    { name: 'title', type: 'string' },
    { name: 'description', type: 'string' },
    { name: 'evidence', type: { type: 'array', items: 'string' }, default: [] },
  ],
} as const;

export const investigationSchema = {
  type: 'record',
  name: 'Investigation',
  namespace: 'io.vigil.investigations.v1',
  doc: 'A report about one person, tied to the detection that triggered it.',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'status', type: 'string' },
    { name: 'outcome', type: ['null', 'string'], default: null },
    { name: 'headline', type: 'string' },
    { name: 'summary', type: 'string' },
    { name: 'confidence', type: 'string' },
    { name: 'recommended_action', type: 'string' },
    { name: 'risk_score', type: 'double' },
    { name: 'findings', type: { type: 'array', items: findingSchema }, default: [] },
    {
      name: 'person',
      type: {
        type: 'record',
        name: 'Person',
        fields: [
          { name: 'name', type: 'string' },
          { name: 'email', type: 'string' },
          { name: 'role', type: ['null', 'string'], default: null },
          { name: 'department', type: ['null', 'string'], default: null },
          { name: 'manager', type: ['null', 'string'], default: null },
        ],
      },
    },
    {
      name: 'detection',
      type: {
        type: 'record',
        name: 'DetectionRef',
        fields: [
          { name: 'id', type: 'string' },
          { name: 'name', type: 'string' },
        ],
      },
    },
    { name: 'updated_at', type: { type: 'long', logicalType: 'timestamp-millis' } },
  ],
} as const;
