/**
 * Microsoft Teams: "The message size limit is 28 KB. When the size exceeds 28 KB, you receive an
 * error" (learn.microsoft.com, Teams platform, "Create an Incoming Webhook"); workflows posting
 * a card fail with "Request Entity too large" above about 28 KB (Teams connector, known
 * limitations). Adaptive Cards document no per-text limit.
 */
export const TEAMS_LIMITS = {
  messageBytes: 28_000,
} as const;

/**
 * What Vigil stays within: well under 28 KB, because the limit counts the message as Teams
 * stores it (users have reported refusals from about 21 KB) and a workflow may wrap the card.
 */
export const TEAMS_RENDER_LIMITS = {
  bodyBytes: 20_000,
  /** Events listed at most; fewer when the body would exceed bodyBytes. */
  events: 25,
  title: 300,
  line: 500,
} as const;
