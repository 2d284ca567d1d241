import fc from 'fast-check';
import {
  NO_PROVIDER_FILTER,
  describeFilterSkip,
  filterDelivery,
  type ProviderFilter,
  type FilteredNotification,
} from './provider-filter';

const detection = (
  maxRiskScore: number | null,
  sources: string[] = ['okta'],
): FilteredNotification => ({ subject: 'detection', maxRiskScore, sources });
const investigation = (riskScore: number | null): FilteredNotification => ({
  subject: 'investigation',
  riskScore,
});
const filter = (overrides: Partial<ProviderFilter>): ProviderFilter => ({
  ...NO_PROVIDER_FILTER,
  ...overrides,
});

describe('filterDelivery', () => {
  it('lets everything through when the provider has no filter', () => {
    expect(filterDelivery(detection(null, []), NO_PROVIDER_FILTER)).toBeNull();
    expect(filterDelivery(investigation(null), NO_PROVIDER_FILTER)).toBeNull();
  });

  it('holds back the other subject', () => {
    expect(filterDelivery(investigation(9), filter({ subjects: 'detections' }))).toEqual({
      code: 'filtered_subject',
      subjects: 'detections',
    });
    expect(filterDelivery(detection(9), filter({ subjects: 'investigations' }))).toEqual({
      code: 'filtered_subject',
      subjects: 'investigations',
    });
    expect(filterDelivery(detection(9), filter({ subjects: 'detections' }))).toBeNull();
  });

  it('holds back a score below the minimum, and an unscored notification; the minimum itself passes', () => {
    const atLeast7 = filter({ minRiskScore: 7 });
    expect(filterDelivery(detection(6.9), atLeast7)).toEqual({
      code: 'filtered_risk_score',
      riskScore: 6.9,
      minRiskScore: 7,
    });
    expect(filterDelivery(detection(7), atLeast7)).toBeNull();
    expect(filterDelivery(investigation(null), atLeast7)).toEqual({
      code: 'filtered_risk_score',
      riskScore: null,
      minRiskScore: 7,
    });
    expect(filterDelivery(investigation(8), atLeast7)).toBeNull();
  });

  it('lets a detection through when one of its sources is listed, ignoring case', () => {
    const github = filter({ sources: ['GitHub'] });
    expect(filterDelivery(detection(1, ['okta', 'github']), github)).toBeNull();
    expect(filterDelivery(detection(1, ['okta']), github)).toEqual({
      code: 'filtered_source',
      sources: ['okta'],
      wanted: ['GitHub'],
    });
    expect(filterDelivery(detection(1, []), github)?.code).toBe('filtered_source');
  });

  it('never holds an investigation back for its sources: it names none', () => {
    expect(filterDelivery(investigation(1), filter({ sources: ['okta'] }))).toBeNull();
  });

  it('says the first rule that holds back: subject, then score, then sources', () => {
    const strict = filter({ subjects: 'detections', minRiskScore: 5, sources: ['aws'] });
    expect(filterDelivery(investigation(1), strict)?.code).toBe('filtered_subject');
    expect(filterDelivery(detection(1, ['okta']), strict)?.code).toBe('filtered_risk_score');
    expect(filterDelivery(detection(9, ['okta']), strict)?.code).toBe('filtered_source');
  });

  describe('properties', () => {
    const score = fc.option(fc.double({ min: 0, max: 10, noNaN: true }), { nil: null });
    const source = fc.constantFrom('okta', 'OKTA', 'github', 'aws', 'crowdstrike');
    const notifications: fc.Arbitrary<FilteredNotification> = fc.oneof(
      fc.record({
        subject: fc.constant('detection' as const),
        maxRiskScore: score,
        sources: fc.array(source, { maxLength: 3 }),
      }),
      fc.record({ subject: fc.constant('investigation' as const), riskScore: score }),
    );
    const filters: fc.Arbitrary<ProviderFilter> = fc.record({
      subjects: fc.constantFrom('all' as const, 'detections' as const, 'investigations' as const),
      minRiskScore: score,
      sources: fc.array(source, { maxLength: 3 }),
    });

    it('passes a notification exactly when every rule lets it through', () => {
      fc.assert(
        fc.property(notifications, filters, (notification, f) => {
          const subjectOk = f.subjects === 'all' || f.subjects === `${notification.subject}s`;
          const riskScore =
            notification.subject === 'detection'
              ? notification.maxRiskScore
              : notification.riskScore;
          const scoreOk =
            f.minRiskScore === null || (riskScore !== null && riskScore >= f.minRiskScore);
          const sourcesOk =
            notification.subject === 'investigation' ||
            f.sources.length === 0 ||
            notification.sources.some((s) =>
              f.sources.some((w) => w.toLowerCase() === s.toLowerCase()),
            );
          expect(filterDelivery(notification, f) === null).toBe(subjectOk && scoreOk && sourcesOk);
        }),
      );
    });

    it('loosening a filter never holds back what the stricter one let through', () => {
      fc.assert(
        fc.property(notifications, filters, (notification, f) => {
          if (filterDelivery(notification, f) !== null) return;
          expect(filterDelivery(notification, { ...f, subjects: 'all' })).toBeNull();
          expect(filterDelivery(notification, { ...f, minRiskScore: null })).toBeNull();
          expect(filterDelivery(notification, { ...f, sources: [] })).toBeNull();
        }),
      );
    });

    it("words every reason on one line, naming the provider's rule", () => {
      fc.assert(
        fc.property(notifications, filters, (notification, f) => {
          const skip = filterDelivery(notification, f);
          if (skip === null) return;
          const words = describeFilterSkip(skip);
          expect(words).toMatch(/^Filtered out: .+\.$/);
          expect(words).not.toContain('\n');
        }),
      );
    });
  });
});
