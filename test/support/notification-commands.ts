import { randomUUID } from 'node:crypto';
import type { Kafka, Producer } from 'kafkajs';
import {
  decodeNotificationCommands,
  encodeDetectionCommands,
  encodeNotificationCommand,
  type DigestEntryDecision,
  type EmailDecision,
  type InvestigationEmailDecision,
  type InvestigationWebhookDecision,
  type NotificationCommand,
  type NotificationDecision,
  type WebhookDecision,
} from '@vigil/contracts';

export const MINUTE = 60_000;

/** A detection webhook decision: 2 new events of 2 people, 2 hours 5 minutes after the last. */
export function aWebhookDecision(overrides: Partial<WebhookDecision> = {}): WebhookDecision {
  const decidedAt = Date.UTC(2025, 4, 1, 12, 5, 0);
  return {
    kind: 'webhook',
    channel: 'webhook',
    notificationId: randomUUID(),
    detectionId: `det-${randomUUID()}`,
    detectionName: 'Impossible travel',
    previousCount: 3,
    currentCount: 5,
    since: decidedAt - 125 * MINUTE,
    eventCount: 2,
    userCount: 2,
    affectedUsers: [
      { email: 'ada@example.com', name: 'Ada Lovelace' },
      { email: 'alan@example.com', name: 'Alan Turing' },
    ],
    decidedAt,
    events: [
      {
        id: 'evt-4',
        personName: 'Ada Lovelace',
        personEmail: 'ada@example.com',
        description: 'Sign-in from a new country',
        timestamp: decidedAt - 10 * MINUTE,
      },
      {
        id: 'evt-5',
        personName: 'Alan Turing',
        personEmail: 'alan@example.com',
        description: 'Sign-in from two continents',
        timestamp: decidedAt - 5 * MINUTE,
      },
    ],
    truncatedCount: 0,
    maxRiskScore: 7.5,
    sources: ['okta'],
    providerIds: [],
    ...overrides,
  };
}

export function anEmailDecision(overrides: Partial<EmailDecision> = {}): EmailDecision {
  const { providerIds: _ignored, ...base } = aWebhookDecision();
  return { ...base, kind: 'email', channel: 'email', recipients: [], ...overrides };
}

export function aDigestEntryDecision(
  overrides: Partial<DigestEntryDecision> = {},
): DigestEntryDecision {
  const { providerIds: _p, events: _e, truncatedCount: _t, ...base } = aWebhookDecision();
  const windowEnd = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE;
  return {
    ...base,
    kind: 'digest-entry',
    channel: 'email',
    recipients: [],
    windowStart: windowEnd - 60 * MINUTE,
    windowEnd,
    entryKey: randomUUID(),
    windowNewCount: 2,
    windowBaseCount: 3,
    windowSince: base.since,
    ...overrides,
  };
}

export function anInvestigationWebhookDecision(
  overrides: Partial<InvestigationWebhookDecision> = {},
): InvestigationWebhookDecision {
  return {
    kind: 'investigation-webhook',
    channel: 'webhook',
    notificationId: randomUUID(),
    fingerprint: 'fp-1',
    investigationId: `inv-${randomUUID()}`,
    status: 'completed',
    outcome: 'confirmed_risk',
    headline: 'Credential sharing by Ada',
    personName: 'Ada Lovelace',
    personEmail: 'ada@example.com',
    detectionId: 'det-default',
    detectionName: 'Password sharing',
    riskScore: 8.5,
    decidedAt: Date.UTC(2025, 4, 2, 9, 30),
    providerIds: [],
    ...overrides,
  };
}

export function anInvestigationEmailDecision(
  overrides: Partial<InvestigationEmailDecision> = {},
): InvestigationEmailDecision {
  const { providerIds: _p, ...base } = anInvestigationWebhookDecision();
  return { ...base, kind: 'investigation-email', channel: 'email', recipients: [], ...overrides };
}

export function commandOf(decision: NotificationCommand['decision']): NotificationCommand {
  return { version: 1, id: decision.notificationId, emittedAt: Date.now(), decision };
}

/** The commands of a record the processor wrote; a record the notifier would refuse fails the test. */
export function commandsInRecord(value: Buffer | null): NotificationCommand[] {
  const commands = decodeNotificationCommands(value);
  if (typeof commands === 'string') throw new Error(`Not a valid command record: ${commands}`);
  return commands;
}

/** Produces commands the way the stream processor does: JSON, keyed by detection or investigation. */
export class CommandProducer {
  private readonly producer: Producer;

  constructor(
    kafka: Kafka,
    private readonly topic: string,
  ) {
    this.producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  }

  connect(): Promise<void> {
    return this.producer.connect();
  }

  async send(...commands: NotificationCommand[]): Promise<void> {
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: commands.map((command) => ({
        key:
          'investigationId' in command.decision
            ? command.decision.investigationId
            : command.decision.detectionId,
        value: encodeNotificationCommand(command),
      })),
    });
  }

  /** The decisions of one recalculation of a detection in one record, as the processor writes them. */
  async sendRecalculation(...decisions: NotificationDecision[]): Promise<void> {
    await this.sendRaw(decisions[0].detectionId, encodeDetectionCommands(decisions, Date.now()));
  }

  async sendRaw(key: string, value: Buffer): Promise<void> {
    await this.producer.send({ topic: this.topic, acks: -1, messages: [{ key, value }] });
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }
}
