/**
 * User-controlled text (detection names, people, descriptions, ids) made safe to place in any
 * target's message, as one line:
 * - line breaks, tabs and other line or paragraph separators become a space, so a name cannot
 *   add lines of its own (or start a Markdown list or quote on a line of its own);
 * - other control characters (C0, DEL, C1) are dropped: they show as boxes at best, and
 *   `\u0000` is refused by some JSON stores;
 * - bidirectional embedding, override and isolate controls are dropped, so a name cannot display
 *   reversed ("Trojan Source" spoofing);
 * - a lone surrogate becomes U+FFFD: it has no UTF-8 encoding, so receivers may refuse the body.
 * Everything else, emoji and other astral characters included, is kept as it is.
 */
export function sanitizeText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i] + text[i + 1];
        i++;
      } else {
        out += '\ufffd';
      }
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      out += '\ufffd';
    } else if (isLineOrTab(unit)) {
      // \r\n is one break: one space.
      if (!(unit === 0x0a && i > 0 && text.charCodeAt(i - 1) === 0x0d)) out += ' ';
    } else if (!isDropped(unit)) {
      out += text[i];
    }
  }
  return out;
}

function isLineOrTab(unit: number): boolean {
  return (unit >= 0x09 && unit <= 0x0d) || unit === 0x85 || unit === 0x2028 || unit === 0x2029;
}

function isDropped(unit: number): boolean {
  return (
    unit < 0x20 ||
    (unit >= 0x7f && unit <= 0x9f) ||
    (unit >= 0x202a && unit <= 0x202e) ||
    (unit >= 0x2066 && unit <= 0x2069)
  );
}

/**
 * `text` with each lone surrogate replaced by U+FFFD and nothing else changed: what an id needs
 * before `encodeURIComponent`, which throws on a lone surrogate.
 */
export function toWellFormed(text: string): string {
  return text.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '\ufffd',
  );
}
