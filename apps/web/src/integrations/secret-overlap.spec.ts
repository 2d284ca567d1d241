import { describeOverlap } from './secret-overlap';

describe('describeOverlap', () => {
  it('says the overlap in the largest whole unit', () => {
    expect(describeOverlap(24 * 3_600_000)).toBe('24 hours');
    expect(describeOverlap(2 * 86_400_000)).toBe('2 days');
    expect(describeOverlap(3_600_000)).toBe('1 hour');
    expect(describeOverlap(90 * 60_000)).toBe('90 minutes');
    expect(describeOverlap(1_500)).toBe('1500 ms');
  });
});
