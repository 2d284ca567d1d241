/** The parts of a Teams message with an Adaptive Card that Vigil sends to a workflow. */

export interface TeamsTextRun {
  type: 'TextRun';
  /** Shown as it is: "Markdown is not supported" in a TextRun (Adaptive Cards schema). */
  text: string;
  weight?: 'Bolder';
  size?: 'Large';
  isSubtle?: true;
}

export interface TeamsRichTextBlock {
  type: 'RichTextBlock';
  inlines: TeamsTextRun[];
  spacing?: 'Medium';
}

/** Only for Vigil's own words: a TextBlock renders a Markdown subset. */
export interface TeamsTextBlock {
  type: 'TextBlock';
  text: string;
  wrap: true;
  weight?: 'Bolder';
  isSubtle?: true;
  spacing?: 'Medium';
}

export type TeamsCardElement = TeamsRichTextBlock | TeamsTextBlock;

export interface TeamsOpenUrlAction {
  type: 'Action.OpenUrl';
  title: string;
  url: string;
}

export interface TeamsAdaptiveCard {
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json';
  type: 'AdaptiveCard';
  version: '1.4';
  msteams: { width: 'Full' };
  body: TeamsCardElement[];
  actions: TeamsOpenUrlAction[];
}

/** The body a Teams workflow ("When a Teams webhook request is received") accepts. */
export interface TeamsMessage {
  type: 'message';
  attachments: [
    {
      contentType: 'application/vnd.microsoft.card.adaptive';
      contentUrl: null;
      content: TeamsAdaptiveCard;
    },
  ];
}
