import { keywordOf, tokenize } from './lexer';

const kinds = (text: string): string[] =>
  tokenize(text).map((token) => `${token.kind}:${token.value}`);

describe('tokenize', () => {
  it('splits operators, words, numbers, strings and punctuation', () => {
    expect(kinds("a=1 b!='x''y'(c<=-2.5e3,d>=e)<>")).toEqual([
      'word:a',
      'operator:=',
      'number:1',
      'word:b',
      'operator:!=',
      "string:x'y",
      'lparen:(',
      'word:c',
      'operator:<=',
      'number:-2.5e3',
      'comma:,',
      'word:d',
      'operator:>=',
      'word:e',
      'rparen:)',
      'invalid:<>',
      'eof:',
    ]);
  });

  it('records UTF-16 offsets and raw text', () => {
    const [first, second, third] = tokenize("😀 'O''B' x");
    expect(first).toMatchObject({ kind: 'invalid', start: 0, end: 2, text: '😀' });
    expect(second).toMatchObject({
      kind: 'string',
      start: 3,
      end: 9,
      text: "'O''B'",
      value: "O'B",
    });
    expect(third).toMatchObject({ kind: 'word', start: 10, end: 11 });
  });

  it('never throws; malformed input becomes invalid tokens with a problem', () => {
    expect(tokenize("'open")[0]).toMatchObject({
      kind: 'invalid',
      text: "'open",
      problem: expect.stringMatching(/unterminated/),
    });
    expect(tokenize('12ab')[0]).toMatchObject({
      kind: 'invalid',
      text: '12ab',
      problem: 'malformed number',
    });
    expect(tokenize('1.x')[0]).toMatchObject({ kind: 'invalid', text: '1.x' });
    expect(tokenize('\uDC00')[0]).toMatchObject({
      kind: 'invalid',
      problem: expect.stringMatching(/surrogate/),
    });
    expect(tokenize('-')[0]).toMatchObject({ kind: 'invalid', text: '-' });
  });

  it('lexes words with Unicode letters and combining marks', () => {
    expect(kinds('sourcé _x9 e\u0301')).toEqual([
      'word:sourcé',
      'word:_x9',
      'word:e\u0301',
      'eof:',
    ]);
  });

  it('recognizes keywords case-insensitively', () => {
    const [and, or, not, notKeyword] = tokenize('aNd OR not notes');
    expect([keywordOf(and), keywordOf(or), keywordOf(not), keywordOf(notKeyword)]).toEqual([
      'AND',
      'OR',
      'NOT',
      undefined,
    ]);
    expect(keywordOf(tokenize("'AND'")[0])).toBeUndefined();
  });
});
