import { fitLines } from './fit-lines';

describe('fitLines', () => {
  it('keeps the lines whose joined text fits, in order', () => {
    expect(fitLines(['aaa', 'bb', 'c'], 6)).toEqual(['aaa', 'bb']);
    expect(fitLines(['aaa', 'bb', 'c'], 8)).toEqual(['aaa', 'bb', 'c']);
    expect(fitLines(['aaaa'], 3)).toEqual([]);
    expect(fitLines([], 3)).toEqual([]);
  });
});
