export type UtcTimestampResult =
  { readonly ok: true; readonly millis: number } | { readonly ok: false; readonly reason: string };

// Deliberately looser than what is accepted, so that near misses get a specific reason.
const LOOSE_FORM =
  /^(\d{4})-(\d{2})-(\d{2})(?:([Tt ])(\d{2}):(\d{2})(?::(\d{2}))?(?:\.(\d+))?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

const FORM_DESCRIPTION = 'YYYY-MM-DDTHH:MM:SS[.sss]Z';

/**
 * Parses an ISO 8601 UTC timestamp as accepted by the query language:
 * - `YYYY-MM-DDTHH:MM:SSZ` with optional 1–3 fractional second digits (`.5`, `.25`, `.123`);
 * - `+00:00` instead of `Z`;
 * - a date alone, `YYYY-MM-DD`, meaning midnight UTC of that day.
 *
 * Rejected, each with a specific reason: other offsets (`+02:00`, and `-00:00`, which RFC 3339
 * reserves for "unknown offset"), a missing zone, lowercase `t`/`z`, a space separator, missing
 * seconds, sub-millisecond precision, leap seconds, dates that do not exist (`2024-02-30`) and
 * years outside 0001–9999.
 */
export function parseUtcTimestamp(text: string): UtcTimestampResult {
  const match = LOOSE_FORM.exec(text);
  if (!match) {
    return { ok: false, reason: `not in the form ${FORM_DESCRIPTION}` };
  }
  const [, yearText, monthText, dayText, separator, hourText, minuteText] = match;
  const [secondText, fractionText, zone] = [match[7], match[8], match[9]];
  const hasTime = separator !== undefined;

  if (hasTime) {
    if (separator !== 'T') {
      return { ok: false, reason: 'separate the date and the time with an uppercase T' };
    }
    if (secondText === undefined) {
      return { ok: false, reason: 'seconds are required (HH:MM:SS)' };
    }
    if (fractionText !== undefined && fractionText.length > 3) {
      return {
        ok: false,
        reason: 'at most millisecond precision is supported (up to 3 fractional digits)',
      };
    }
    if (zone === undefined) {
      return { ok: false, reason: 'the time zone is missing: end the timestamp with Z (UTC)' };
    }
    if (zone === 'z') {
      return { ok: false, reason: 'write the UTC designator as an uppercase Z' };
    }
    if (zone !== 'Z' && zone !== '+00:00') {
      if (zone === '-00:00') {
        return { ok: false, reason: 'the offset -00:00 means "unknown offset"; use Z for UTC' };
      }
      if (/^[+-]00:?(00)?$/.test(zone)) {
        return { ok: false, reason: `write the UTC offset ${zone} as Z or +00:00` };
      }
      return {
        ok: false,
        reason: `the offset ${zone} is not UTC; convert the time to UTC and end it with Z`,
      };
    }
  }

  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  const hour = hasTime ? Number(hourText) : 0;
  const minute = hasTime ? Number(minuteText) : 0;
  const second = hasTime ? Number(secondText) : 0;
  const millisecond = fractionText === undefined ? 0 : Number(fractionText.padEnd(3, '0'));

  if (year < 1) return { ok: false, reason: 'the year must be between 0001 and 9999' };
  if (month < 1 || month > 12) return { ok: false, reason: `month ${monthText} does not exist` };
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (day < 1 || date.getUTCDate() !== day) {
    return { ok: false, reason: `${yearText}-${monthText}-${dayText} is not a calendar date` };
  }
  if (hour > 23) return { ok: false, reason: `hour ${hourText} is out of range (00–23)` };
  if (minute > 59) return { ok: false, reason: `minute ${minuteText} is out of range (00–59)` };
  if (second > 59) {
    return { ok: false, reason: `second ${secondText} is out of range (00–59; no leap seconds)` };
  }
  date.setUTCHours(hour, minute, second, millisecond);
  return { ok: true, millis: date.getTime() };
}

/**
 * The canonical text of an epoch-milliseconds timestamp: `YYYY-MM-DDTHH:MM:SS.sssZ`
 * (what `Date#toISOString` gives for years 0001–9999).
 */
export function formatUtcTimestamp(millis: number): string {
  return new Date(millis).toISOString();
}
