import type { BrowserContext, Page } from 'playwright-core';

/**
 * Text an attacker controls, shaped to break out of every HTML context a page or an email may
 * put it in: element content, quoted and unquoted attributes, <textarea>, <title>, links, and
 * template engines. Every payload that runs sets `window.__xss` and opens a dialog.
 */
export const HOSTILE = {
  script: '<script>window.__xss=1;alert("script")</script>',
  img: '"><img src=x onerror="window.__xss=1;alert(`img`)">',
  svg: "'><svg onload=window.__xss=1;alert('svg')>",
  javascriptUrl: 'javascript:window.__xss=1;alert("url")//',
  textarea: '</textarea><img src=x onerror=window.__xss=1>',
  title: '</title><script>window.__xss=1</script>',
  template: '{{7*7}} ${7*7} <%= 7*7 %>',
  /** Right-to-left override and isolates: reorder what follows them on screen. */
  bidi: '\u202Egnp.exe\u202C \u2067isolated\u2069 \u200F',
} as const;

/** A single word of `length` characters, to check that long strings wrap instead of overflowing. */
export function unbrokenWord(length: number, letter = 'W'): string {
  return letter.repeat(length);
}

/** Everything on a page that is, or could become, live markup an attacker planted. */
export interface InjectedMarkup {
  /** `window.__xss` as the page sees it (undefined unless a payload ran). */
  readonly xss: unknown;
  /**
   * CSP violations the page reported (a blocked inline script or handler means one was planted);
   * null when recordCspViolations was not installed.
   */
  readonly cspViolations: string[] | null;
  /** Elements no page or email of the product contains, e.g. `img[src=x]`, `svg`. */
  readonly foreignElements: string[];
  /** Event-handler attributes (`onerror`, `onload`, ...) on any element. */
  readonly handlerAttributes: string[];
  /** Script elements other than the allowed ones. */
  readonly scripts: string[];
  /** Links, form actions and frames whose URL uses a `javascript:`, `data:` or `vbscript:` scheme. */
  readonly scriptUrls: string[];
}

/**
 * Installs, before any page script runs, a record of the CSP violations every page of the
 * context reports.
 */
export async function recordCspViolations(context: BrowserContext): Promise<void> {
  // A string, so the script runs in the page without DOM types in this project.
  await context.addInitScript(`
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', function (e) {
      window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || ''));
    });
  `);
}

/**
 * What of an attacker's markup is live on the page. `allowedScripts` are the `src` paths of the
 * product's own scripts; `allowedTags` the elements its pages or emails are built of.
 */
export async function injectedMarkupIn(
  page: Page,
  allowedScripts: readonly string[],
  allowedTags: readonly string[],
): Promise<InjectedMarkup> {
  const allowed = JSON.stringify({ scripts: allowedScripts, tags: allowedTags });
  // A string, so the script runs in the page without DOM types in this project.
  const found = await page.evaluate<InjectedMarkup & { xss: string }>(
    `(({ scripts, tags }) => {
      const all = Array.from(document.querySelectorAll('*'));
      const describe = (el) => el.outerHTML.slice(0, 160);
      const allowed = new Set(tags.map((t) => t.toLowerCase()));
      const urlOf = (el, name) => (el.getAttribute(name) || '').replace(/[\\u0000-\\u0020]/g, '');
      const scriptScheme = /^(javascript|data|vbscript):/i;
      return {
        xss: String(window.__xss),
        cspViolations: window.__cspViolations || null,
        foreignElements: all
          .filter((el) => !allowed.has(el.localName) && el.localName !== 'script')
          .map(describe),
        handlerAttributes: all.flatMap((el) =>
          Array.from(el.attributes)
            .filter((a) => /^on/i.test(a.name))
            .map((a) => el.localName + '[' + a.name + '=' + a.value + ']'),
        ),
        scripts: Array.from(document.scripts)
          .filter((s) => !scripts.includes(s.getAttribute('src') || ''))
          .map(describe),
        scriptUrls: all.flatMap((el) =>
          ['href', 'src', 'action', 'formaction', 'xlink:href', 'data']
            .filter((name) => el.hasAttribute(name) && scriptScheme.test(urlOf(el, name)))
            .map((name) => el.localName + '[' + name + '=' + el.getAttribute(name) + ']'),
        ),
      };
    })(${allowed})`,
  );
  return { ...found, xss: found.xss === 'undefined' ? undefined : found.xss };
}

/** The text a person reads or edits on the page: text nodes and the values of form fields. */
export function displayedTextOf(page: Page): Promise<string> {
  return page.evaluate<string>(`
    document.body.textContent + '\\n' +
      Array.from(document.querySelectorAll('input, textarea'))
        .map((field) => field.value)
        .join('\\n')
  `);
}
