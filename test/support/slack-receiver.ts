import {
  isJsonRequest,
  isObject,
  jsonObjectOf,
  ServiceReceiver,
  unknownKeys,
  type ServiceAnswer,
  type ServiceRequest,
} from './service-receiver';

/**
 * A stand-in for a Slack incoming webhook that checks what Slack documents for a message
 * (docs.slack.dev: incoming webhooks, Block Kit blocks, block elements and composition objects)
 * and answers like Slack: 200 `ok`, or 400 `invalid_payload`, `no_text`, `invalid_blocks`,
 * `msg_too_long`, `msg_blocks_too_long`, 404 `no_service`.
 */
export class SlackReceiver {
  static readonly PATH = '/services/T0VIGIL01/B0VIGIL02/vigilTestWebhookSecret24';
  /** Messages Slack would have posted. */
  readonly accepted: Record<string, unknown>[] = [];
  private readonly receiver = new ServiceReceiver((request) => this.answer(request));

  static async start(): Promise<SlackReceiver> {
    const slack = new SlackReceiver();
    await slack.receiver.listen();
    return slack;
  }

  /** The incoming-webhook URL (another path reaches no webhook). */
  webhookUrl(path = SlackReceiver.PATH): string {
    return this.receiver.url(path);
  }

  get received(): ServiceRequest[] {
    return this.receiver.received;
  }

  stop(): Promise<void> {
    return this.receiver.stop();
  }

  private answer(request: ServiceRequest): ServiceAnswer {
    if (request.url !== SlackReceiver.PATH) return slackError(404, 'no_service');
    if (request.method !== 'POST') return slackError(405, 'invalid_method');
    if (!isJsonRequest(request)) return slackError(400, 'invalid_payload');
    const message = jsonObjectOf(request.body);
    if (!message) return slackError(400, 'invalid_payload');
    const problem = slackMessageProblem(message);
    if (problem) return slackError(400, problem);
    this.accepted.push(message);
    return { status: 200, contentType: 'text/html', body: 'ok' };
  }
}

function slackError(status: number, code: string): ServiceAnswer {
  return { status, contentType: 'text/html', body: code };
}

/** The error Slack answers for a message, or null when it would post it. */
export function slackMessageProblem(message: Record<string, unknown>): string | null {
  const { text, blocks } = message;
  if (text !== undefined && typeof text !== 'string') return 'invalid_payload';
  for (const flag of ['mrkdwn', 'unfurl_links', 'unfurl_media']) {
    if (message[flag] !== undefined && typeof message[flag] !== 'boolean') return 'invalid_payload';
  }
  if ((text === undefined || text === '') && blocks === undefined) return 'no_text';
  if (typeof text === 'string' && text.length > 40_000) return 'msg_too_long';
  if (blocks === undefined) return null;
  if (!Array.isArray(blocks) || blocks.length === 0 || blocks.length > 50) return 'invalid_blocks';
  let blockText = 0;
  for (const block of blocks as unknown[]) {
    const length = blockTextLength(block);
    if (length === null) return 'invalid_blocks';
    blockText += length;
  }
  // Not documented: Slack refuses messages whose blocks hold about 13,000 characters or more
  // (slackapi/bolt-js#2509).
  if (blockText >= 13_000) return 'msg_blocks_too_long';
  return null;
}

/** The characters a valid block holds, or null when Slack would refuse the block. */
function blockTextLength(block: unknown): number | null {
  if (!isObject(block)) return null;
  if (block.block_id !== undefined && !isText(block.block_id, 255)) return null;
  switch (block.type) {
    case 'header':
      if (unknownKeys(block, ['type', 'text', 'block_id']).length > 0) return null;
      return textObjectLength(block.text, 150, ['plain_text']);
    case 'section': {
      if (unknownKeys(block, ['type', 'text', 'fields', 'block_id']).length > 0) return null;
      if (block.text === undefined && block.fields === undefined) return null;
      let total = 0;
      if (block.text !== undefined) {
        const length = textObjectLength(block.text, 3000);
        if (length === null) return null;
        total += length;
      }
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields) || block.fields.length === 0 || block.fields.length > 10) {
          return null;
        }
        for (const field of block.fields as unknown[]) {
          const length = textObjectLength(field, 2000);
          if (length === null) return null;
          total += length;
        }
      }
      return total;
    }
    case 'context': {
      if (unknownKeys(block, ['type', 'elements', 'block_id']).length > 0) return null;
      const { elements } = block;
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > 10) return null;
      let total = 0;
      for (const element of elements as unknown[]) {
        const length = textObjectLength(element, 3000);
        if (length === null) return null;
        total += length;
      }
      return total;
    }
    case 'actions': {
      if (unknownKeys(block, ['type', 'elements', 'block_id']).length > 0) return null;
      const { elements } = block;
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25) return null;
      let total = 0;
      for (const element of elements as unknown[]) {
        const length = buttonLength(element);
        if (length === null) return null;
        total += length;
      }
      return total;
    }
    case 'divider':
      return unknownKeys(block, ['type', 'block_id']).length > 0 ? null : 0;
    default:
      return null;
  }
}

function buttonLength(button: unknown): number | null {
  if (!isObject(button) || button.type !== 'button') return null;
  const allowed = ['type', 'text', 'url', 'action_id', 'value', 'style', 'accessibility_label'];
  if (unknownKeys(button, allowed).length > 0) return null;
  const text = textObjectLength(button.text, 75, ['plain_text']);
  if (text === null) return null;
  if (button.action_id !== undefined && !isText(button.action_id, 255)) return null;
  if (button.value !== undefined && !isText(button.value, 2000)) return null;
  if (button.style !== undefined && button.style !== 'primary' && button.style !== 'danger') {
    return null;
  }
  if (button.url === undefined) return text;
  if (!isText(button.url, 3000) || !/^https?:\/\/[^\s]+$/.test(button.url)) return null;
  return text + button.url.length;
}

/** A text object's length, or null when it is not one Slack takes. */
function textObjectLength(
  value: unknown,
  max: number,
  types: readonly string[] = ['plain_text', 'mrkdwn'],
): number | null {
  if (!isObject(value) || !types.includes(value.type as string)) return null;
  const allowed =
    value.type === 'plain_text' ? ['type', 'text', 'emoji'] : ['type', 'text', 'verbatim'];
  if (unknownKeys(value, allowed).length > 0) return null;
  if (value.emoji !== undefined && typeof value.emoji !== 'boolean') return null;
  if (value.verbatim !== undefined && typeof value.verbatim !== 'boolean') return null;
  return isText(value.text, max) ? value.text.length : null;
}

function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= max;
}
