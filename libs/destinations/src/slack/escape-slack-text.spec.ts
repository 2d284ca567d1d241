import { escapeSlackText } from './escape-slack-text';

describe('escapeSlackText', () => {
  it('escapes Slack’s three control characters and nothing else', () => {
    expect(escapeSlackText('a & b < c > d')).toBe('a &amp; b &lt; c &gt; d');
    expect(escapeSlackText('*bold* _it_ ~s~ `code` "q" \'s\'')).toBe(
      '*bold* _it_ ~s~ `code` "q" \'s\'',
    );
  });

  it('escapes an ampersand that already looks like an entity, so it shows as typed', () => {
    expect(escapeSlackText('&amp;')).toBe('&amp;amp;');
  });

  it('leaves no way to form a mention, a link or a command', () => {
    for (const hostile of ['<!channel>', '<!here>', '<@U024BE7LH>', '<#C1|x>', '<https://e|x>']) {
      expect(escapeSlackText(hostile)).not.toMatch(/[<>]/);
    }
  });
});
