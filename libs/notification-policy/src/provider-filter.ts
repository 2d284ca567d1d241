export const FILTER_SUBJECTS = ['all', 'detections', 'investigations'] as const;
/** Which notifications a provider receives: about detections, investigations or both. */
export type FilterSubjects = (typeof FILTER_SUBJECTS)[number];

/**
 * Which notifications one provider receives. A notification it does not let through is
 * recorded as a skipped delivery with the reason (filterDelivery), never dropped silently.
 */
export interface ProviderFilter {
  subjects: FilterSubjects;
  /** The lowest risk score it is told about; a notification without a score is below any. */
  minRiskScore: number | null;
  /** The sources (connected systems, e.g. `okta`) it is told about; empty for all. */
  sources: readonly string[];
}

/** Every notification passes: the filter of a provider that has none. */
export const NO_PROVIDER_FILTER: ProviderFilter = {
  subjects: 'all',
  minRiskScore: null,
  sources: [],
};

/** What a filter looks at in a notification. */
export type FilteredNotification =
  | {
      subject: 'detection';
      /** The highest risk score of the notification's new events; null when none is scored. */
      maxRiskScore: number | null;
      /** The sources of the notification's new events. */
      sources: readonly string[];
    }
  | { subject: 'investigation'; riskScore: number | null };

/** Why a provider's filter holds a notification back. Each code has its words in describeFilterSkip. */
export type FilterSkip =
  | { code: 'filtered_subject'; subjects: 'detections' | 'investigations' }
  | { code: 'filtered_risk_score'; riskScore: number | null; minRiskScore: number }
  | { code: 'filtered_source'; sources: string[]; wanted: string[] };

/**
 * Null when the filter lets the notification through, else why not. The subject is checked
 * first, then the risk score, then the sources; an investigation names no source of its own,
 * so a source list never holds one back. Sources match ignoring case.
 */
export function filterDelivery(
  notification: FilteredNotification,
  filter: ProviderFilter,
): FilterSkip | null {
  const wantedSubject = notification.subject === 'detection' ? 'detections' : 'investigations';
  if (filter.subjects !== 'all' && filter.subjects !== wantedSubject) {
    return { code: 'filtered_subject', subjects: filter.subjects };
  }
  if (filter.minRiskScore !== null) {
    const riskScore =
      notification.subject === 'detection' ? notification.maxRiskScore : notification.riskScore;
    if (riskScore === null || riskScore < filter.minRiskScore) {
      return { code: 'filtered_risk_score', riskScore, minRiskScore: filter.minRiskScore };
    }
  }
  if (notification.subject === 'detection' && filter.sources.length > 0) {
    const wanted = new Set(filter.sources.map((source) => source.toLowerCase()));
    if (!notification.sources.some((source) => wanted.has(source.toLowerCase()))) {
      return {
        code: 'filtered_source',
        sources: [...notification.sources],
        wanted: [...filter.sources],
      };
    }
  }
  return null;
}

/** A filter's reason in words, for the delivery log, the dry run and the CLI. */
export function describeFilterSkip(skip: FilterSkip): string {
  switch (skip.code) {
    case 'filtered_subject':
      return `Filtered out: this provider receives ${skip.subjects} only.`;
    case 'filtered_risk_score':
      return skip.riskScore === null
        ? `Filtered out: no risk score, and this provider receives ${skip.minRiskScore} and above only.`
        : `Filtered out: risk score ${skip.riskScore} is below this provider's minimum of ${skip.minRiskScore}.`;
    case 'filtered_source':
      return skip.sources.length === 0
        ? `Filtered out: the events name no source, and this provider receives ${skip.wanted.join(', ')} only.`
        : `Filtered out: the events come from ${skip.sources.join(', ')}, and this provider receives ${skip.wanted.join(', ')} only.`;
  }
}
