import {
  isJsonRequest,
  isObject,
  jsonObjectOf,
  ServiceReceiver,
  type ServiceAnswer,
  type ServiceRequest,
} from './service-receiver';

/**
 * A stand-in for a Teams workflow trigger ("When a Teams webhook request is received") that
 * checks what Microsoft documents for the message it posts: JSON of at most 28 KB (Teams
 * "Create an Incoming Webhook": larger messages are refused), `type: message` with Adaptive Card
 * attachments, each card of a version Teams renders (up to 1.5) using only elements of that
 * version. It answers like the trigger: 202 when it takes the message, 401 without the right
 * `sig`, 413 when too large, 400 otherwise.
 */
export class TeamsReceiver {
  static readonly PATH = '/workflows/0c7e5f1a2b3d4e5f6a7b8c9d0e1f2a3b/triggers/manual/paths/invoke';
  static readonly SIG = 'vIgIlTeStSiGnAtUrE_0123456789';
  /** Cards Teams would have posted. */
  readonly accepted: Record<string, unknown>[] = [];
  private readonly receiver = new ServiceReceiver((request) => this.answer(request));

  static async start(): Promise<TeamsReceiver> {
    const teams = new TeamsReceiver();
    await teams.receiver.listen();
    return teams;
  }

  /** The workflow URL; `sig` replaces the signature (null leaves it out). */
  workflowUrl(sig: string | null = TeamsReceiver.SIG): string {
    const query = `api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0${sig === null ? '' : `&sig=${sig}`}`;
    return this.receiver.url(`${TeamsReceiver.PATH}?${query}`);
  }

  get received(): ServiceRequest[] {
    return this.receiver.received;
  }

  stop(): Promise<void> {
    return this.receiver.stop();
  }

  private answer(request: ServiceRequest): ServiceAnswer {
    const url = new URL(request.url, 'http://receiver');
    if (url.pathname !== TeamsReceiver.PATH) return flowError(404, 'TriggerNotFound');
    if (url.searchParams.get('sig') === null)
      return flowError(401, 'DirectApiAuthorizationRequired');
    if (url.searchParams.get('sig') !== TeamsReceiver.SIG) {
      return flowError(401, 'DirectApiInvalidAuthorizationSignature');
    }
    if (request.method !== 'POST') return flowError(405, 'MethodNotAllowed');
    if (Buffer.byteLength(request.body, 'utf8') > 28_000) {
      return flowError(413, 'RequestEntityTooLarge');
    }
    if (!isJsonRequest(request)) return flowError(400, 'InvalidRequestContent');
    const message = jsonObjectOf(request.body);
    const problem = message ? teamsMessageProblem(message) : 'the body is not a JSON object';
    if (problem || !message) return flowError(400, 'InvalidTemplate', problem ?? undefined);
    this.accepted.push(message);
    return { status: 202 };
  }
}

function flowError(status: number, code: string, message = code): ServiceAnswer {
  return {
    status,
    contentType: 'application/json',
    body: JSON.stringify({ error: { code, message } }),
  };
}

const VERSIONS = ['1.0', '1.1', '1.2', '1.3', '1.4', '1.5'];

/** Element types and the card version that introduced each. */
const ELEMENTS: Record<string, string> = {
  TextBlock: '1.0',
  Image: '1.0',
  Container: '1.0',
  ColumnSet: '1.0',
  FactSet: '1.0',
  ActionSet: '1.2',
  RichTextBlock: '1.2',
};

const at = (version: string) => VERSIONS.indexOf(version);

/** Why a workflow would refuse the message, or null when it posts it. */
export function teamsMessageProblem(message: Record<string, unknown>): string | null {
  if (message.type !== 'message') return 'type must be "message"';
  const { attachments } = message;
  if (!Array.isArray(attachments) || attachments.length === 0) {
    return 'attachments must list at least one card';
  }
  for (const attachment of attachments as unknown[]) {
    if (!isObject(attachment)) return 'an attachment must be an object';
    if (attachment.contentType !== 'application/vnd.microsoft.card.adaptive') {
      return 'contentType must be application/vnd.microsoft.card.adaptive';
    }
    const problem = cardProblem(attachment.content);
    if (problem) return problem;
  }
  return null;
}

function cardProblem(card: unknown): string | null {
  if (!isObject(card) || card.type !== 'AdaptiveCard') return 'content must be an AdaptiveCard';
  if (typeof card.version !== 'string' || !VERSIONS.includes(card.version)) {
    return `version must be one of ${VERSIONS.join(', ')}`;
  }
  const version = card.version;
  if (card.body !== undefined) {
    if (!Array.isArray(card.body)) return 'body must be a list of elements';
    for (const element of card.body as unknown[]) {
      const problem = elementProblem(element, version);
      if (problem) return problem;
    }
  }
  if (card.actions !== undefined) {
    if (!Array.isArray(card.actions)) return 'actions must be a list';
    for (const action of card.actions as unknown[]) {
      const problem = actionProblem(action);
      if (problem) return problem;
    }
  }
  return null;
}

function elementProblem(element: unknown, version: string): string | null {
  if (!isObject(element) || typeof element.type !== 'string') return 'an element needs a type';
  const since = ELEMENTS[element.type];
  if (!since) return `unknown element ${element.type}`;
  if (at(since) > at(version)) return `${element.type} needs card version ${since}`;
  switch (element.type) {
    case 'TextBlock':
      return typeof element.text === 'string' ? null : 'a TextBlock needs text';
    case 'RichTextBlock': {
      const { inlines } = element;
      if (!Array.isArray(inlines) || inlines.length === 0) return 'a RichTextBlock needs inlines';
      for (const inline of inlines as unknown[]) {
        if (typeof inline === 'string') continue;
        if (!isObject(inline) || inline.type !== 'TextRun' || typeof inline.text !== 'string') {
          return 'inlines must be TextRuns with text';
        }
      }
      return null;
    }
    case 'FactSet':
      return Array.isArray(element.facts) &&
        (element.facts as unknown[]).every(
          (fact) =>
            isObject(fact) && typeof fact.title === 'string' && typeof fact.value === 'string',
        )
        ? null
        : 'a FactSet needs facts with title and value';
    case 'Image':
      return typeof element.url === 'string' ? null : 'an Image needs a url';
    case 'Container':
    case 'ColumnSet':
    case 'ActionSet':
      return null;
    default:
      return `unknown element ${element.type}`;
  }
}

function actionProblem(action: unknown): string | null {
  if (!isObject(action) || action.type !== 'Action.OpenUrl') {
    return 'a workflow card can only open URLs (Action.OpenUrl)';
  }
  if (typeof action.url !== 'string' || !/^https?:\/\/\S+$/.test(action.url)) {
    return 'Action.OpenUrl needs an absolute http(s) url';
  }
  if (action.title !== undefined && typeof action.title !== 'string') return 'title must be text';
  return null;
}
