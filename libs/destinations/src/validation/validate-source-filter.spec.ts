import { validateSourceFilter } from './validate-source-filter';

const KNOWN = ['okta', 'crowdstrike', 'google_workspace', 'GitHub', 'aws'];

describe('validateSourceFilter', () => {
  it('takes no filter as every source', () => {
    expect(validateSourceFilter(undefined, KNOWN)).toEqual({ ok: true, value: [] });
    expect(validateSourceFilter(null, KNOWN)).toEqual({ ok: true, value: [] });
    expect(validateSourceFilter([], KNOWN)).toEqual({ ok: true, value: [] });
  });

  it('keeps known sources in their known spelling, without duplicates', () => {
    expect(validateSourceFilter([' OKTA ', 'github', 'okta'], KNOWN)).toEqual({
      ok: true,
      value: ['okta', 'GitHub'],
    });
  });

  it('refuses an unknown source on its own field, naming the known ones', () => {
    expect(validateSourceFilter(['okta', 'oktta', 7, ' '], KNOWN)).toEqual({
      ok: false,
      errors: [
        {
          field: 'sources[1]',
          message:
            '"oktta" is not a known source (known: okta, crowdstrike, google_workspace, GitHub, aws)',
        },
        { field: 'sources[2]', message: 'must be a source name' },
        { field: 'sources[3]', message: 'must be a source name' },
      ],
    });
  });

  it('says when no source is known yet', () => {
    expect(validateSourceFilter(['okta'], [], 'filter')).toEqual({
      ok: false,
      errors: [
        {
          field: 'filter[0]',
          message: '"okta" is not a known source: no events have arrived from any source yet',
        },
      ],
    });
  });

  it('lists at most twenty known sources in a message', () => {
    const many = Array.from({ length: 30 }, (_, i) => `s${i}`);
    const result = validateSourceFilter(['nope'], many);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0].message).toMatch(/s19, …\)$/);
  });

  it('refuses what is not a list, or too long a list', () => {
    expect(validateSourceFilter('okta', KNOWN)).toEqual({
      ok: false,
      errors: [{ field: 'sources', message: 'must be a list of source names' }],
    });
    expect(validateSourceFilter(Array(101).fill('okta'), KNOWN)).toEqual({
      ok: false,
      errors: [{ field: 'sources', message: 'must name at most 100 sources' }],
    });
  });
});
