/**
 * Slack's documented limits for a message posted to an incoming webhook (characters, counted
 * here in UTF-16 code units, which are never fewer).
 */
export const SLACK_LIMITS = {
  /** "You can include up to 50 blocks in each message" (docs.slack.dev/reference/block-kit/blocks). */
  blocks: 50,
  /** Header block: "Maximum length for the text in this field is 150 characters." */
  headerText: 150,
  /** Section block: text "Minimum 1 and maximum 3000 characters." */
  sectionText: 3000,
  /** Button element: text 75, url 3000, action_id 255 characters. */
  buttonText: 75,
  buttonUrl: 3000,
  actionId: 255,
  /** Top-level `text`: Slack truncates messages longer than 40,000 characters (chat.postMessage). */
  text: 40_000,
} as const;

/**
 * What Vigil itself stays within. Slack also refuses messages whose blocks hold much less text
 * than the per-block limits add up to (`msg_blocks_too_long` from about 13,000 characters,
 * slackapi/bolt-js#2509), so the blocks of one message hold at most ~9,300 characters: a
 * header, two sections and one button, whatever the input.
 */
export const SLACK_RENDER_LIMITS = {
  /** The fallback `text` shown in notifications: title and body lines. */
  fallbackText: 3000,
  /** Events listed in the message, newest first. */
  events: 10,
  /** One event's line in the list. */
  eventLine: 290,
} as const;
