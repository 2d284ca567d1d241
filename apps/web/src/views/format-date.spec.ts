import { formatDate, timeElement } from './format-date';

describe('dates in pages', () => {
  it('shows day, month name, year and a 24-hour UTC time', () => {
    expect(formatDate(new Date('2026-03-03T09:05:59Z'))).toBe('3 Mar 2026, 09:05 UTC');
    expect(formatDate(new Date('2025-12-31T23:59:00Z'))).toBe('31 Dec 2025, 23:59 UTC');
  });

  it('marks up the instant in a <time> element, and "Never" for no date', () => {
    expect(timeElement(new Date('2026-03-03T09:05:00Z')).value).toBe(
      '<time datetime="2026-03-03T09:05:00.000Z">3 Mar 2026, 09:05 UTC</time>',
    );
    expect(timeElement(null).value).toBe('<span class="muted">Never</span>');
  });
});
