import { formatUtcTimestamp, parseUtcTimestamp } from './parse-utc-timestamp';

describe('parseUtcTimestamp', () => {
  it.each<[string, number]>([
    ['2024-01-01T00:00:00Z', Date.UTC(2024, 0, 1)],
    ['2024-01-01T00:00:00.000Z', Date.UTC(2024, 0, 1)],
    ['2024-01-01T00:00:00.5Z', Date.UTC(2024, 0, 1, 0, 0, 0, 500)],
    ['2024-01-01T00:00:00.05Z', Date.UTC(2024, 0, 1, 0, 0, 0, 50)],
    ['2024-01-01T00:00:00.123Z', Date.UTC(2024, 0, 1, 0, 0, 0, 123)],
    ['2024-06-15T23:59:59.999+00:00', Date.UTC(2024, 5, 15, 23, 59, 59, 999)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2000-02-29T12:00:00Z', Date.UTC(2000, 1, 29, 12)],
    ['1969-12-31T23:59:59.999Z', -1],
    ['1970-01-01T00:00:00Z', 0],
    ['0001-01-01T00:00:00Z', -62135596800000],
    ['0099-03-01', Date.parse('0099-03-01T00:00:00.000Z')],
    ['9999-12-31T23:59:59.999Z', 253402300799999],
  ])('accepts %s', (text, millis) => {
    expect(parseUtcTimestamp(text)).toEqual({ ok: true, millis });
  });

  it.each<[string, RegExp]>([
    ['2024-02-30T00:00:00Z', /2024-02-30 is not a calendar date/],
    ['2023-02-29', /2023-02-29 is not a calendar date/],
    ['1900-02-29', /not a calendar date/],
    ['2024-04-31', /not a calendar date/],
    ['2024-01-00', /not a calendar date/],
    ['2024-13-01', /month 13 does not exist/],
    ['2024-00-10', /month 00 does not exist/],
    ['0000-01-01', /year must be between 0001 and 9999/],
    ['2024-01-01T24:00:00Z', /hour 24 is out of range/],
    ['2024-01-01T23:60:00Z', /minute 60 is out of range/],
    ['2024-12-31T23:59:60Z', /no leap seconds/],
    ['2024-01-01T10:00:00+02:00', /the offset \+02:00 is not UTC; convert the time to UTC/],
    ['2024-01-01T10:00:00-05:30', /-05:30 is not UTC/],
    ['2024-01-01T10:00:00+0200', /\+0200 is not UTC/],
    ['2024-01-01T10:00:00-00:00', /unknown offset/],
    ['2024-01-01T10:00:00+0000', /write the UTC offset \+0000 as Z or \+00:00/],
    ['2024-01-01T10:00:00', /time zone is missing/],
    ['2024-01-01T10:00:00.123', /time zone is missing/],
    ['2024-01-01T10:00:00z', /uppercase Z/],
    ['2024-01-01t10:00:00Z', /uppercase T/],
    ['2024-01-01 10:00:00Z', /uppercase T/],
    ['2024-01-01T10:00Z', /seconds are required/],
    ['2024-01-01T10:00:00.1234Z', /millisecond precision/],
    ['2024-1-1', /not in the form YYYY-MM-DDTHH:MM:SS\[\.sss\]Z/],
    ['20240101T000000Z', /not in the form/],
    ['yesterday', /not in the form/],
    ['', /not in the form/],
    [' 2024-01-01', /not in the form/],
    ['2024-01-01T00:00:00ZZ', /not in the form/],
    ['２０２４-01-01', /not in the form/],
  ])('rejects %j', (text, reason) => {
    const result = parseUtcTimestamp(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('formats canonically with milliseconds', () => {
    expect(formatUtcTimestamp(Date.UTC(2024, 0, 1, 0, 0, 0, 5))).toBe('2024-01-01T00:00:00.005Z');
    expect(formatUtcTimestamp(-62135596800000)).toBe('0001-01-01T00:00:00.000Z');
  });
});
