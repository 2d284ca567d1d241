/**
 * Tokenizer for the event query language. It never throws: malformed input becomes an `invalid`
 * token (with a `problem` description) that the parser reports together with what it expected at
 * that point, so errors always come out in text order.
 */
export type TokenKind =
  'word' | 'string' | 'number' | 'operator' | 'lparen' | 'rparen' | 'comma' | 'invalid' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The raw source text of the token (empty for `eof`). */
  readonly text: string;
  /** 0-based UTF-16 offset of the first character. */
  readonly start: number;
  /** 0-based UTF-16 offset just past the last character. */
  readonly end: number;
  /** For `string` tokens the content with `''` unescaped; otherwise equal to `text`. */
  readonly value: string;
  /** For `invalid` tokens: what is wrong with the text, as a short hint. */
  readonly problem?: string;
}

export type Keyword = 'AND' | 'OR' | 'NOT' | 'IN' | 'TRUE' | 'FALSE';

const KEYWORDS: ReadonlySet<string> = new Set<Keyword>(['AND', 'OR', 'NOT', 'IN', 'TRUE', 'FALSE']);

/** The keyword a `word` token spells (case-insensitively), if any. */
export function keywordOf(token: Token): Keyword | undefined {
  if (token.kind !== 'word') return undefined;
  const upper = token.text.toUpperCase();
  return KEYWORDS.has(upper) ? (upper as Keyword) : undefined;
}

const WHITESPACE = /\s+/uy;
const WORD = /[\p{L}_][\p{L}\p{M}\p{N}_]*/uy;
const NUMBER = /[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NUMBER_TAIL = /[\p{L}\p{M}\p{N}_.]+/uy;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  const match = pattern.exec(text);
  return match ? match[0] : undefined;
}

function isDigit(unit: number): boolean {
  return unit >= 0x30 && unit <= 0x39;
}

const STRAY_CHARACTER_HINTS: Readonly<Record<string, string>> = {
  '"': 'string literals use single quotes',
  '`': 'string literals use single quotes',
  '&': 'use AND to combine conditions',
  '|': 'use OR to combine conditions',
  '!': 'use != for "not equal" or NOT to negate a condition',
  '<>': 'use != for "not equal"',
  '==': 'use a single = for "equal"',
  ';': 'a query is a single expression',
};

export class Lexer {
  private offset = 0;

  constructor(private readonly text: string) {}

  next(): Token {
    const text = this.text;
    const skipped = matchAt(WHITESPACE, text, this.offset);
    if (skipped !== undefined) this.offset += skipped.length;
    const start = this.offset;
    if (start >= text.length) return this.token('eof', start, start);

    const char = text[start];
    switch (char) {
      case '(':
        return this.token('lparen', start, start + 1);
      case ')':
        return this.token('rparen', start, start + 1);
      case ',':
        return this.token('comma', start, start + 1);
      case '=':
        if (text[start + 1] === '=') return this.invalid(start, start + 2);
        return this.token('operator', start, start + 1);
      case '!':
        if (text[start + 1] === '=') return this.token('operator', start, start + 2);
        return this.invalid(start, start + 1);
      case '<':
        if (text[start + 1] === '=') return this.token('operator', start, start + 2);
        if (text[start + 1] === '>') return this.invalid(start, start + 2);
        return this.token('operator', start, start + 1);
      case '>':
        if (text[start + 1] === '=') return this.token('operator', start, start + 2);
        return this.token('operator', start, start + 1);
      case "'":
        return this.string(start);
      default:
        break;
    }

    const unit = text.charCodeAt(start);
    if (isDigit(unit) || ((char === '-' || char === '+') && isDigit(text.charCodeAt(start + 1)))) {
      return this.number(start);
    }
    const word = matchAt(WORD, text, start);
    if (word !== undefined) return this.token('word', start, start + word.length);
    const codePoint = text.codePointAt(start)!;
    const width = codePoint > 0xffff ? 2 : 1;
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
      return this.invalid(start, start + 1, 'an unpaired UTF-16 surrogate is not valid text');
    }
    return this.invalid(start, start + width);
  }

  private string(start: number): Token {
    const text = this.text;
    let i = start + 1;
    for (;;) {
      const close = text.indexOf("'", i);
      if (close === -1) {
        return this.invalid(
          start,
          text.length,
          "unterminated string: add the closing quote; write '' for a quote inside a string",
        );
      }
      if (text[close + 1] === "'") {
        i = close + 2;
        continue;
      }
      const raw = text.slice(start, close + 1);
      const content = raw.slice(1, -1);
      if (content.includes('\u0000')) {
        return this.invalid(start, close + 1, 'strings must not contain the NUL character U+0000');
      }
      if (LONE_SURROGATE.test(content)) {
        return this.invalid(
          start,
          close + 1,
          'the string contains an unpaired UTF-16 surrogate, which is not valid text',
        );
      }
      this.offset = close + 1;
      return {
        kind: 'string',
        text: raw,
        start,
        end: close + 1,
        value: content.replace(/''/g, "'"),
      };
    }
  }

  private number(start: number): Token {
    const text = this.text;
    const numeric = matchAt(NUMBER, text, start)!;
    const end = start + numeric.length;
    const tail = matchAt(NUMBER_TAIL, text, end);
    if (tail !== undefined) {
      return this.invalid(start, end + tail.length, 'malformed number');
    }
    return this.token('number', start, end);
  }

  private token(kind: TokenKind, start: number, end: number): Token {
    this.offset = end;
    const raw = this.text.slice(start, end);
    return { kind, text: raw, start, end, value: raw };
  }

  private invalid(start: number, end: number, problem?: string): Token {
    this.offset = end;
    const raw = this.text.slice(start, end);
    const hint = problem ?? STRAY_CHARACTER_HINTS[raw];
    return hint === undefined
      ? { kind: 'invalid', text: raw, start, end, value: raw }
      : { kind: 'invalid', text: raw, start, end, value: raw, problem: hint };
  }
}

/** All tokens of `text`, ending with one `eof` token. Never throws. */
export function tokenize(text: string): Token[] {
  const lexer = new Lexer(text);
  const tokens: Token[] = [];
  for (;;) {
    const token = lexer.next();
    tokens.push(token);
    if (token.kind === 'eof') return tokens;
  }
}
