import { QueryError, lineAndColumn } from './query-error';

describe('QueryError', () => {
  it('is an Error with a code and location', () => {
    const error = new QueryError('boom', {
      position: 3,
      line: 1,
      column: 4,
      expected: 'x',
      found: 'y',
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'QueryError', code: 'invalid_query', message: 'boom' });
  });
});

describe('lineAndColumn', () => {
  it.each<[string, number, number, number]>([
    ['abc', 0, 1, 1],
    ['abc', 3, 1, 4],
    ['a\nb', 2, 2, 1],
    ['a\r\nb', 3, 2, 1],
    ['a\rb', 2, 2, 1],
    ['😀x', 2, 1, 2],
    ['e\u0301x', 2, 1, 3],
    ['\n\n\n x', 4, 4, 2],
  ])('%j at %i → line %i, column %i', (text, position, line, column) => {
    expect(lineAndColumn(text, position)).toEqual({ line, column });
  });
});
