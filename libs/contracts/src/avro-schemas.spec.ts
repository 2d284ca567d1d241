import { Type } from 'avsc';
import { detectionEventSchema, investigationSchema } from './avro-schemas';
import { parseDetectionEvent, type DetectionEventRecord } from './detection-event';
import { parseInvestigation } from './investigation';

const NOW = Date.UTC(2025, 5, 1);

function anEvent(overrides: Partial<DetectionEventRecord> = {}): DetectionEventRecord {
  return {
    id: 'evt-1',
    detection_id: '0f8a4c1e-1b2d-4c3e-9f00-aa11bb22cc33',
    detection_name: 'Impossible travel',
    issue_type: 'impossible_travel',
    employee_email: 'ada@example.com',
    employee_name: 'Ada Lovelace',
    asset_name: 'okta',
    happened: Date.UTC(2025, 4, 1, 12, 0, 0, 123),
    risk_score: 7.25,
    source: 'okta',
    high_prevalence: false,
    allowlisted: false,
    description: 'Sign-in from two countries within 5 minutes',
    ...overrides,
  };
}

describe('detection event schema', () => {
  const type = Type.forSchema(detectionEventSchema as never);

  it('round-trips every field through Avro, milliseconds included', () => {
    const event = anEvent();
    expect(type.fromBuffer(type.toBuffer(event))).toEqual(event);
  });

  it('round-trips an event without a description', () => {
    const event = anEvent({ description: null });
    expect(type.fromBuffer(type.toBuffer(event))).toEqual(event);
  });

  it('reads records written by the first version of the schema (BACKWARD)', () => {
    const v1 = Type.forSchema({
      ...detectionEventSchema,
      fields: detectionEventSchema.fields.filter((f) => f.name !== 'description'),
    });
    const resolver = type.createResolver(v1);
    const { description: _omitted, ...old } = anEvent();
    const decoded = type.fromBuffer(v1.toBuffer(old), resolver) as DetectionEventRecord;
    expect(decoded).toEqual({ ...old, description: null });
  });

  it('refuses a value of the wrong type', () => {
    expect(() => type.toBuffer({ ...anEvent(), risk_score: 'high' })).toThrow();
  });
});

describe('investigation schema', () => {
  const type = Type.forSchema(investigationSchema as never);

  it('round-trips a full report', () => {
    const report = {
      id: 'inv-1',
      status: 'completed',
      outcome: 'confirmed_risk',
      headline: 'Credential sharing by Ada',
      summary: 'Ada shared a password with a contractor.',
      confidence: 'high',
      recommended_action: 'Reset the password and brief Ada.',
      risk_score: 8.5,
      findings: [{ title: 'Shared password', description: 'Seen in chat', evidence: ['msg-1'] }],
      person: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        role: 'Engineer',
        department: 'R&D',
        manager: null,
      },
      detection: { id: 'det-1', name: 'Password sharing' },
      updated_at: NOW,
    };
    expect(type.fromBuffer(type.toBuffer(report))).toEqual(report);
    expect(parseInvestigation(report)).toEqual({ ok: true, value: report });
  });
});

describe('parseDetectionEvent', () => {
  const json = {
    ...anEvent(),
    happened: '2025-05-01T12:00:00.123Z',
    employee_email: 'Ada@Example.com',
  };

  it('accepts an ISO 8601 UTC timestamp and lowercases the email', () => {
    expect(parseDetectionEvent(json, NOW)).toEqual({ ok: true, value: anEvent() });
  });

  it('derives a description from issue type and asset when absent', () => {
    const result = parseDetectionEvent({ ...json, description: undefined }, NOW);
    expect(result.ok && result.value.description).toBe('impossible travel on okta');
  });

  it.each([
    ['happened', { happened: '2025-05-01 12:00:00' }, 'ISO 8601 UTC'],
    ['happened', { happened: '2025-02-30T00:00:00Z' }, 'real calendar date'],
    ['happened', { happened: '2035-01-01T00:00:00Z' }, 'one day from now'],
    ['risk_score', { risk_score: '7' }, 'number'],
    ['employee_email', { employee_email: 'not-an-email' }, 'email'],
    ['id', { id: '' }, ''],
    ['(record)', { extra: 1 }, 'extra'],
  ])('reports %s when it is wrong', (path, override, message) => {
    const result = parseDetectionEvent({ ...json, ...override }, NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors[0].path).toBe(path);
      expect(result.errors[0].message).toContain(message);
    }
  });
});
