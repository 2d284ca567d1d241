import {
  detectionUrl,
  formatElapsed,
  investigationUrl,
  outcomeLabel,
  quantity,
} from './notification-text';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatElapsed', () => {
  it.each([
    [0, '0 seconds'],
    [1 * SECOND, '1 second'],
    [45 * SECOND, '45 seconds'],
    [1 * MINUTE, '1 minute'],
    [5 * MINUTE + 30 * SECOND, '5 minutes'],
    [2 * HOUR + 5 * MINUTE, '2 hours 5 minutes'],
    [1 * HOUR + 1 * MINUTE, '1 hour 1 minute'],
    [2 * HOUR, '2 hours'],
    [3 * DAY + 1 * HOUR + 59 * MINUTE, '3 days 1 hour'],
    [1 * DAY + 5 * MINUTE, '1 day'],
    [-5 * SECOND, '0 seconds'],
  ])('reads %d ms as "%s"', (ms, expected) => {
    expect(formatElapsed(ms)).toBe(expected);
  });
});

describe('links to the web application', () => {
  it('joins the app URL without a doubled slash and encodes the id', () => {
    expect(detectionUrl('https://vigil.example.com/', 'det 1/2')).toBe(
      'https://vigil.example.com/u/detections/det%201%2F2',
    );
    expect(investigationUrl('https://vigil.example.com', 'inv-7')).toBe(
      'https://vigil.example.com/u/investigations/inv-7',
    );
  });
});

it('labels the observed outcomes and shows others as they are', () => {
  expect(outcomeLabel('confirmed_risk')).toBe('Confirmed risk');
  expect(outcomeLabel('no_risk')).toBe('No risk');
  expect(outcomeLabel('inconclusive')).toBe('inconclusive');
});

describe('quantity', () => {
  it.each([
    [0, 'minute', undefined, '0 minutes'],
    [1, 'minute', undefined, '1 minute'],
    [2, 'minute', undefined, '2 minutes'],
    [1440, 'minute', undefined, '1,440 minutes'],
    [1, 'person', 'people', '1 person'],
    [3, 'person', 'people', '3 people'],
    [1, 'more new event', undefined, '1 more new event'],
  ])('reads %d %s as "%s"', (count, singular, plural, expected) => {
    expect(quantity(count, singular, plural)).toBe(expected);
  });
});
