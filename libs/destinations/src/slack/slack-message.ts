/** The parts of Slack's message payload (Block Kit) that Vigil sends to an incoming webhook. */

export interface SlackPlainText {
  type: 'plain_text';
  text: string;
  /** false: `:name:` in user text stays as typed rather than becoming an emoji. */
  emoji: false;
}

export interface SlackMrkdwn {
  type: 'mrkdwn';
  text: string;
}

export interface SlackHeaderBlock {
  type: 'header';
  text: SlackPlainText;
}

export interface SlackSectionBlock {
  type: 'section';
  text: SlackPlainText | SlackMrkdwn;
}

export interface SlackLinkButton {
  type: 'button';
  text: SlackPlainText;
  url: string;
  action_id: string;
  style: 'primary';
}

export interface SlackActionsBlock {
  type: 'actions';
  elements: SlackLinkButton[];
}

export type SlackBlock = SlackHeaderBlock | SlackSectionBlock | SlackActionsBlock;

export interface SlackMessage {
  /** Shown in notifications and where blocks cannot be shown. */
  text: string;
  /** The fallback text is plain: no bold, italics, links or mentions from user text. */
  mrkdwn: false;
  /** User text may hold URLs: Slack must not fetch or preview them. */
  unfurl_links: false;
  unfurl_media: false;
  blocks: SlackBlock[];
}
