import fc from 'fast-check';
import { DEFAULT_SEVERITY_MAPPING, severityFor, type SeverityMapping } from './severity-mapping';

describe('severityFor with the default mapping', () => {
  it.each([
    [0, 'info'],
    [3.999, 'info'],
    [4, 'warning'],
    [6.99, 'warning'],
    [7, 'error'],
    [8.5, 'error'],
    [9, 'critical'],
    [10, 'critical'],
  ] as const)('maps %s to %s', (score, severity) => {
    expect(severityFor(score, DEFAULT_SEVERITY_MAPPING)).toBe(severity);
  });

  it('counts scores outside 0..10 as the nearest end', () => {
    expect(severityFor(-3, DEFAULT_SEVERITY_MAPPING)).toBe('info');
    expect(severityFor(42, DEFAULT_SEVERITY_MAPPING)).toBe('critical');
    expect(severityFor(Number.POSITIVE_INFINITY, DEFAULT_SEVERITY_MAPPING)).toBe('critical');
    expect(severityFor(Number.NEGATIVE_INFINITY, DEFAULT_SEVERITY_MAPPING)).toBe('info');
  });

  it('gives an unscored notification the mapping’s unscored severity', () => {
    expect(severityFor(null, DEFAULT_SEVERITY_MAPPING)).toBe('warning');
    expect(severityFor(Number.NaN, { ...DEFAULT_SEVERITY_MAPPING, unscored: 'critical' })).toBe(
      'critical',
    );
  });
});

describe('severityFor with a configured mapping', () => {
  const twoBands: SeverityMapping = {
    bands: [
      { from: 0, to: 5.5, severity: 'warning' },
      { from: 5.5, to: 10, severity: 'critical' },
    ],
    unscored: 'info',
  };

  it('maps each band’s start into the band and its end into the next', () => {
    expect(severityFor(5.499, twoBands)).toBe('warning');
    expect(severityFor(5.5, twoBands)).toBe('critical');
    expect(severityFor(10, twoBands)).toBe('critical');
  });

  it('falls back to the default mapping where an unchecked mapping has a gap', () => {
    const gap: SeverityMapping = {
      bands: [{ from: 0, to: 2, severity: 'info' }],
      unscored: 'info',
    };
    expect(severityFor(9.5, gap)).toBe('critical');
  });

  it('maps every score to the one band that contains it', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.double({ min: 0.001, max: 9.999, noNaN: true }), { maxLength: 6 }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (cuts, score) => {
          const edges = [0, ...cuts.sort((a, b) => a - b), 10];
          const severities = ['info', 'warning', 'error', 'critical'] as const;
          const mapping: SeverityMapping = {
            bands: edges.slice(1).map((to, i) => ({
              from: edges[i],
              to,
              severity: severities[i % severities.length],
            })),
            unscored: 'info',
          };
          const containing = mapping.bands.filter(
            (band) => band.from <= score && (score < band.to || (score === 10 && band.to === 10)),
          );
          expect(containing).toHaveLength(1);
          expect(severityFor(score, mapping)).toBe(containing[0].severity);
        },
      ),
    );
  });
});
