import fc from 'fast-check';
import type {
  DestinationNotification,
  DetectionNotification,
  InvestigationNotification,
} from '@vigil/destinations';

/**
 * Pieces of hostile user text: each target's markup and mention syntax, Markdown, template
 * functions, control and bidirectional characters, line breaks, astral characters and lone
 * surrogates.
 */
export const HOSTILE_FRAGMENTS = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<@U024BE7LH>',
  '<#C1234|general>',
  '<!subteam^S123>',
  '<https://evil.example|click here>',
  '&',
  '&amp;',
  '&lt;',
  '<',
  '>',
  '*bold*',
  '_italic_',
  '~strike~',
  '`code`',
  '```block```',
  '**strong**',
  '[link](https://evil.example)',
  '![img](https://evil.example/x.png)',
  '# heading',
  '- item',
  '1. item',
  '> quote',
  '<at>Ada</at>',
  '<b>bold</b>',
  '{{DATE(2017-02-14T06:00:00Z, SHORT)}}',
  '{{',
  '{{{',
  ':skull:',
  '@channel',
  '"',
  '\\',
  '\n',
  '\r\n',
  '\t',
  '\u0000',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u202e',
  '\u2066',
  '\u200b',
  '😀',
  '👩‍💻',
  '𝒜',
  '\ud83d',
  '\ude00',
] as const;

const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Short hostile text: fragments mixed with arbitrary code points and arbitrary code units. */
export function hostileText(maxParts = 12): fc.Arbitrary<string> {
  return fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_FRAGMENTS) },
        { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
        { weight: 1, arbitrary: fc.string({ unit: anyUnit, maxLength: 3 }) },
      ),
      { maxLength: maxParts },
    )
    .map((parts) => parts.join(''));
}

/** Hostile text, sometimes far longer than any limit (one fragment repeated thousands of times). */
export function hostileOrHugeText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: hostileText() },
    {
      weight: 1,
      arbitrary: fc
        .tuple(hostileText(3), fc.integer({ min: 1, max: 4000 }))
        .map(([text, times]) => text.repeat(times)),
    },
  );
}

const timestamp = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 4_102_444_800_000 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 8.64e15 + 1),
  },
);

const riskScore = fc.oneof(
  fc.constant(null),
  fc.double({ min: 0, max: 10, noNaN: true }),
  fc.double({ noDefaultInfinity: false }),
);

export function detectionNotifications(maxEvents = 40): fc.Arbitrary<DetectionNotification> {
  const event = fc.record({
    id: hostileOrHugeText(),
    personName: hostileOrHugeText(),
    personEmail: hostileText(),
    description: hostileOrHugeText(),
    timestamp,
  });
  return fc
    .record({
      notificationId: hostileText(),
      detectionId: hostileOrHugeText(),
      detectionName: hostileOrHugeText(),
      previousCount: fc.nat(10_000),
      extraCount: fc.nat(10_000),
      userCount: fc.nat(10_000),
      since: timestamp,
      decidedAt: timestamp,
      events: fc.array(event, { maxLength: maxEvents }),
      maxRiskScore: riskScore,
      sources: fc.array(hostileText(4), { maxLength: 6 }),
    })
    .map(({ extraCount, ...n }): DetectionNotification => {
      const eventCount = n.events.length + extraCount;
      return {
        subject: 'detection',
        ...n,
        currentCount: n.previousCount + eventCount,
        eventCount,
        affectedUsers: [],
        truncatedCount: extraCount,
      };
    });
}

export function investigationNotifications(): fc.Arbitrary<InvestigationNotification> {
  return fc
    .record({
      notificationId: hostileText(),
      investigationId: hostileOrHugeText(),
      status: hostileText(),
      outcome: fc.oneof(fc.constantFrom('confirmed_risk', 'no_risk'), hostileText()),
      headline: hostileOrHugeText(),
      personName: hostileOrHugeText(),
      personEmail: hostileOrHugeText(),
      detectionId: hostileText(),
      detectionName: hostileOrHugeText(),
      riskScore,
      fingerprint: fc.string(),
      decidedAt: timestamp,
    })
    .map((n): InvestigationNotification => ({ subject: 'investigation', ...n }));
}

export function notifications(): fc.Arbitrary<DestinationNotification> {
  return fc.oneof(
    { weight: 3, arbitrary: detectionNotifications() },
    { weight: 1, arbitrary: investigationNotifications() },
  );
}

/** Whether `text` is well-formed UTF-16: no lone surrogate. */
export function isWellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** Every string value anywhere in a parsed JSON value, with its path. */
export function stringsIn(value: unknown, path = ''): [path: string, text: string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringsIn(item, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => stringsIn(item, `${path}.${key}`));
  }
  return [];
}

/** Whether `text` holds a control, line-separator or bidirectional control character. */
export function hasControlCharacters(text: string, allowLineFeed = false): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (allowLineFeed && unit === 0x0a) continue;
    if (
      unit < 0x20 ||
      (unit >= 0x7f && unit <= 0x9f) ||
      unit === 0x2028 ||
      unit === 0x2029 ||
      (unit >= 0x202a && unit <= 0x202e) ||
      (unit >= 0x2066 && unit <= 0x2069)
    ) {
      return true;
    }
  }
  return false;
}
