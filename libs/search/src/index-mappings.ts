/** Explicit mappings: nothing is left to dynamic mapping, so a stray field cannot retype one. */
export const eventsMapping = {
  dynamic: 'strict',
  properties: {
    id: { type: 'keyword' },
    detection_id: { type: 'keyword' },
    detection_name: { type: 'keyword', fields: { text: { type: 'text' } } },
    issue_type: { type: 'keyword' },
    employee_email: { type: 'keyword', normalizer: 'lowercase_normalizer' },
    employee_name: { type: 'keyword', fields: { text: { type: 'text' } } },
    asset_name: { type: 'keyword' },
    happened: { type: 'date', format: 'strict_date_optional_time||epoch_millis' },
    risk_score: { type: 'double' },
    source: { type: 'keyword' },
    high_prevalence: { type: 'boolean' },
    allowlisted: { type: 'boolean' },
    description: { type: 'text' },
    indexed_at: { type: 'date' },
  },
} as const;

/**
 * Events are stored in the order every event query returns them (newest first, then id, as
 * the read model sorts). With the total not tracked, a page then stops after its first hits in
 * each segment instead of ranking every match, so a query that matches much of a growing index
 * keeps its latency.
 */
export const eventsIndexSort: { field: string[]; order: ('asc' | 'desc')[] } = {
  field: ['happened', 'id'],
  order: ['desc', 'asc'],
};

export const investigationsMapping = {
  dynamic: 'strict',
  properties: {
    id: { type: 'keyword' },
    status: { type: 'keyword' },
    outcome: { type: 'keyword' },
    headline: { type: 'text' },
    summary: { type: 'text' },
    confidence: { type: 'keyword' },
    recommended_action: { type: 'text' },
    risk_score: { type: 'double' },
    findings: {
      type: 'object',
      properties: {
        title: { type: 'text' },
        description: { type: 'text' },
        evidence: { type: 'text' },
      },
    },
    person: {
      properties: {
        name: { type: 'keyword' },
        email: { type: 'keyword', normalizer: 'lowercase_normalizer' },
        role: { type: 'keyword' },
        department: { type: 'keyword' },
        manager: { type: 'keyword' },
      },
    },
    detection: { properties: { id: { type: 'keyword' }, name: { type: 'keyword' } } },
    updated_at: { type: 'date' },
  },
} as const;

/**
 * A detection's notification state as the processor last recorded it (one document per
 * detection, its id the detection id). The state itself is kept as written, not indexed: it is
 * read back whole by id, never searched.
 */
export const detectionStatesMapping = {
  dynamic: 'strict',
  properties: {
    detection_id: { type: 'keyword' },
    state: { type: 'object', enabled: false },
    recorded_at: { type: 'date' },
    indexed_at: { type: 'date' },
  },
} as const;

export const commonIndexSettings = (replicas: number) => ({
  number_of_shards: 1,
  number_of_replicas: replicas,
  refresh_interval: '1s',
  analysis: {
    normalizer: { lowercase_normalizer: { type: 'custom' as const, filter: ['lowercase'] } },
  },
});
