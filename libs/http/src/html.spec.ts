import { flag, html } from './html';

describe('html templates', () => {
  it('escapes every interpolated value', () => {
    const name = `<script>alert("x")</script>&'`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
  });

  it('nests fragments without escaping them twice, and joins arrays', () => {
    const items = ['a<b', 'c'].map((i) => html`<li>${i}</li>`);
    expect(
      html`<ul>
        ${items}
      </ul>`.value.replace(/\s+/g, ''),
    ).toBe('<ul><li>a&lt;b</li><li>c</li></ul>');
  });

  it('renders nothing for null, undefined and false, and numbers as text', () => {
    expect(html`${null}${undefined}${false}${0}${true}`.value).toBe('0true');
  });

  it('writes boolean attributes only when on', () => {
    expect(html`<button${flag('disabled', true)}>Go</button>`.value).toBe(
      '<button disabled>Go</button>',
    );
    expect(html`<button${flag('disabled', false)}>Go</button>`.value).toBe('<button>Go</button>');
  });
});
