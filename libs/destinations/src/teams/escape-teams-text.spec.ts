import { escapeTeamsText } from './escape-teams-text';

describe('escapeTeamsText', () => {
  it('breaks every pair of opening braces, so no template function can form', () => {
    expect(escapeTeamsText('{{DATE(2017-02-14T06:00:00Z, SHORT)}}')).toBe(
      '{\u200b{DATE(2017-02-14T06:00:00Z, SHORT)}}',
    );
    expect(escapeTeamsText('{{{')).toBe('{\u200b{\u200b{');
    expect(escapeTeamsText('a{b}c{')).toBe('a{b}c{');
  });

  it('leaves Markdown and markup as typed: a TextRun renders none of it', () => {
    const text = '**b** _i_ [x](https://e) <at>Ada</at> & 😀';
    expect(escapeTeamsText(text)).toBe(text);
  });
});
