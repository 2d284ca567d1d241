import { matchesSourceFilter } from './matches-source-filter';
import { aDetectionNotification, anInvestigationNotification } from './testing/notifications';

describe('matchesSourceFilter', () => {
  it('lets everything through an empty filter', () => {
    expect(matchesSourceFilter(aDetectionNotification({ sources: [] }), [])).toBe(true);
  });

  it('lets a detection through when one of its sources is listed, ignoring case', () => {
    const notification = aDetectionNotification({ sources: ['okta', 'GitHub'] });
    expect(matchesSourceFilter(notification, ['github'])).toBe(true);
    expect(matchesSourceFilter(notification, ['aws', 'crowdstrike'])).toBe(false);
  });

  it('holds back a detection without sources when the filter lists some', () => {
    expect(matchesSourceFilter(aDetectionNotification({ sources: [] }), ['okta'])).toBe(false);
  });

  it('always lets an investigation through: it names no source', () => {
    expect(matchesSourceFilter(anInvestigationNotification(), ['okta'])).toBe(true);
  });
});
