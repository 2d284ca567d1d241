import { nextOffset } from './next-offset';

describe('nextOffset', () => {
  it('commits the offset after the last handled record', () => {
    expect(nextOffset('0')).toBe('1');
    expect(nextOffset('41')).toBe('42');
  });

  it('stays exact beyond the safe integer range', () => {
    expect(nextOffset('9007199254740993')).toBe('9007199254740994');
  });
});
