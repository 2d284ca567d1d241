import fc from 'fast-check';
import { DEFAULT_SEVERITY_MAPPING } from './severity-mapping';
import { validateSeverityMapping } from './validate-severity-mapping';

function errorsOf(input: unknown) {
  const result = validateSeverityMapping(input);
  if (result.ok) throw new Error('accepted');
  return result.errors;
}

const band = (from: unknown, to: unknown, severity: unknown = 'info') => ({ from, to, severity });

describe('validateSeverityMapping', () => {
  it('accepts the default mapping and a single band', () => {
    expect(validateSeverityMapping(DEFAULT_SEVERITY_MAPPING)).toEqual({
      ok: true,
      value: DEFAULT_SEVERITY_MAPPING,
    });
    expect(
      validateSeverityMapping({ bands: [band(0, 10, 'critical')], unscored: 'error' }),
    ).toEqual({ ok: true, value: { bands: [band(0, 10, 'critical')], unscored: 'error' } });
  });

  it('drops fields it does not know', () => {
    const result = validateSeverityMapping({
      bands: [{ from: 0, to: 10, severity: 'info', colour: 'red' }],
      unscored: 'info',
      extra: true,
    });
    expect(result).toEqual({ ok: true, value: { bands: [band(0, 10)], unscored: 'info' } });
  });

  it('refuses what is not a mapping', () => {
    for (const input of [null, undefined, 'info', [band(0, 10)]]) {
      expect(errorsOf(input)).toEqual([
        {
          field: 'severityMapping',
          message: 'must be a list of score bands and the severity of unscored notifications',
        },
      ]);
    }
  });

  it('refuses an empty list of bands and a missing unscored severity', () => {
    expect(errorsOf({ bands: [] })).toEqual([
      {
        field: 'severityMapping.unscored',
        message: 'must be one of info, warning, error, critical',
      },
      {
        field: 'severityMapping.bands',
        message: 'must list at least one band of scores from 0 to 10',
      },
    ]);
  });

  it('names the score range a gap leaves without a severity', () => {
    expect(errorsOf({ bands: [band(0, 4), band(5, 10)], unscored: 'info' })).toEqual([
      {
        field: 'severityMapping.bands[1].from',
        message: 'must be 4, where band 1 ends: scores from 4 to 5 have no severity',
      },
    ]);
  });

  it('names the score range an overlap gives two severities', () => {
    expect(errorsOf({ bands: [band(0, 6), band(4, 10, 'critical')], unscored: 'info' })).toEqual([
      {
        field: 'severityMapping.bands[1].from',
        message: 'must be 6, where band 1 ends: scores from 4 to 6 would have two severities',
      },
    ]);
  });

  it('requires the bands to start at 0 and end at 10', () => {
    expect(errorsOf({ bands: [band(1, 9)], unscored: 'info' })).toEqual([
      {
        field: 'severityMapping.bands[0].from',
        message: 'must be 0: scores from 0 to 1 have no severity',
      },
      {
        field: 'severityMapping.bands[0].to',
        message: 'must be 10: scores from 9 to 10 have no severity',
      },
    ]);
  });

  it('requires the bands in ascending order', () => {
    expect(errorsOf({ bands: [band(5, 10), band(0, 5)], unscored: 'info' })).toEqual([
      {
        field: 'severityMapping.bands',
        message: 'must be listed from the lowest scores to the highest',
      },
    ]);
  });

  it('reports each malformed band field on its own', () => {
    expect(
      errorsOf({
        bands: [band('0', 4), band(4, 4), band(4, 11, 'fatal'), null],
        unscored: 'info',
      }),
    ).toEqual([
      { field: 'severityMapping.bands[0].from', message: 'must be a number from 0 to 10' },
      {
        field: 'severityMapping.bands[1].to',
        message: 'must be above where band 2 starts (4), not 4',
      },
      { field: 'severityMapping.bands[2].to', message: 'must be from 0 to 10, not 11' },
      {
        field: 'severityMapping.bands[2].severity',
        message: 'must be one of info, warning, error, critical',
      },
      { field: 'severityMapping.bands[3].from', message: 'must be a number from 0 to 10' },
      { field: 'severityMapping.bands[3].to', message: 'must be a number from 0 to 10' },
      {
        field: 'severityMapping.bands[3].severity',
        message: 'must be one of info, warning, error, critical',
      },
    ]);
  });

  it('refuses more than 20 bands', () => {
    const bands = Array.from({ length: 21 }, (_, i) => band((i * 10) / 21, ((i + 1) * 10) / 21));
    expect(errorsOf({ bands, unscored: 'info' })).toEqual([
      { field: 'severityMapping.bands', message: 'must list at most 20 bands, not 21' },
    ]);
  });

  it('accepts exactly the contiguous partitions of 0..10', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { maxLength: 8 }),
        fc.option(fc.record({ at: fc.nat(), shift: fc.integer({ min: -5, max: 5 }) })),
        (cuts, damage) => {
          const edges = [0, ...cuts.sort((a, b) => a - b), 100].map((edge) => edge / 10);
          const bands = edges
            .slice(1)
            .map((to, i) => ({ from: edges[i], to, severity: 'warning' }));
          let contiguous = true;
          if (damage && damage.shift !== 0) {
            const i = damage.at % bands.length;
            const moved = Math.round((bands[i].from + damage.shift / 10) * 10) / 10;
            if (moved >= 0 && moved < bands[i].to) {
              bands[i] = { ...bands[i], from: moved };
              contiguous = false;
            }
          }
          expect(validateSeverityMapping({ bands, unscored: 'info' }).ok).toBe(contiguous);
        },
      ),
    );
  });
});
