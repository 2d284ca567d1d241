import { validateProviderFilter } from './validate-provider-filter';

const KNOWN = ['okta', 'GitHub'];

describe('validateProviderFilter', () => {
  it('lets everything through when there is no filter or every field is empty', () => {
    const none = { ok: true, value: { subjects: 'all', minRiskScore: null, sources: [] } };
    expect(validateProviderFilter(undefined, KNOWN)).toEqual(none);
    expect(validateProviderFilter({ subjects: '', minRiskScore: ' ', sources: [] }, KNOWN)).toEqual(
      none,
    );
  });

  it('takes a subject, a score typed in a form, and known sources in their known spelling', () => {
    expect(
      validateProviderFilter(
        { subjects: 'detections', minRiskScore: '7.5', sources: ['OKTA', 'github', 'okta'] },
        KNOWN,
      ),
    ).toEqual({
      ok: true,
      value: { subjects: 'detections', minRiskScore: 7.5, sources: ['okta', 'GitHub'] },
    });
    expect(validateProviderFilter({ minRiskScore: 0 }, KNOWN)).toMatchObject({
      ok: true,
      value: { minRiskScore: 0 },
    });
  });

  it('reports every problem on its field', () => {
    const result = validateProviderFilter(
      { subjects: 'alerts', minRiskScore: '-1', sources: ['okta', 'splunk'] },
      KNOWN,
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'subjects', message: 'must be one of all, detections, investigations' },
        {
          field: 'minRiskScore',
          message: 'must be a number of at least 0, or empty for every score',
        },
        { field: 'sources[1]', message: '"splunk" is not a known source (known: okta, GitHub)' },
      ],
    });
  });

  it.each([
    'seven',
    '1e3',
    '0x10',
    'Infinity',
    '7,5',
    '',
    Number.NaN,
    -0.5,
    Number.POSITIVE_INFINITY,
  ])('refuses the minimum risk score %p unless it is empty', (minRiskScore) => {
    const result = validateProviderFilter({ minRiskScore }, KNOWN);
    if (minRiskScore === '') expect(result.ok).toBe(true);
    else expect(result).toMatchObject({ ok: false, errors: [{ field: 'minRiskScore' }] });
  });

  it('refuses a filter that is not an object', () => {
    expect(validateProviderFilter('detections', KNOWN)).toEqual({
      ok: false,
      errors: [{ field: 'filter', message: 'must be an object' }],
    });
  });
});
