import { z } from 'zod';
import type { DetectionCommandsRecord, SharedDecision } from './detection-commands-record';
import type {
  InvestigationEmailDecision,
  InvestigationWebhookDecision,
} from './investigation-decision';
import type { NotificationCommand } from './notification-command';
import type {
  AffectedUser,
  DigestEntryDecision,
  EmailDecision,
  EventSummary,
  WebhookDecision,
} from './notification-decision';

/*
 * What the notifier accepts on `notifications.commands.v1`. Each schema `satisfies` the type it
 * reads, so a field added to a decision type fails to compile until it is described here too.
 * Unknown fields are dropped, not refused: a newer processor may add one before the notifier
 * knows it.
 */

/** Epoch milliseconds a Date can hold, so rendering a time never throws. */
const epochMillis = z.int().min(-8.64e15).max(8.64e15);
/** Counts are the engine's to get right; the notifier needs them to be whole numbers. */
const count = z.int();
const id = z.string().min(1);
const strings = z.array(z.string());

/*
 * A version 2 record lists up to one tuple per event and per user (5,000 each by default):
 * their shape is checked by hand, which costs a fraction of zod's tuples. Positions are numbers
 * here; the reader checks each is a whole position in its list as it resolves it.
 */
const isEpochMillis = (value: unknown) =>
  Number.isInteger(value) && Math.abs(value as number) <= 8.64e15;
const isPosition = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const stringPair = z.custom<[string, string]>(
  (value) =>
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'string' &&
    typeof value[1] === 'string',
  'Invalid input: expected [string, string]',
);
const eventTuple = z.custom<[string, number, number, number]>(
  (value) =>
    Array.isArray(value) &&
    value.length === 4 &&
    typeof value[0] === 'string' &&
    isPosition(value[1]) &&
    isPosition(value[2]) &&
    isEpochMillis(value[3]),
  'Invalid input: expected [id, person position, description position, epoch millis]',
);
const positions = z.array(z.number());

const eventSummary = z.object({
  id: z.string(),
  personName: z.string(),
  personEmail: z.string(),
  description: z.string(),
  timestamp: epochMillis,
}) satisfies z.ZodType<EventSummary>;

const affectedUser = z.object({
  email: z.string(),
  name: z.string(),
}) satisfies z.ZodType<AffectedUser>;

const detectionUpdate = {
  notificationId: id,
  detectionId: id,
  detectionName: z.string(),
  previousCount: count,
  currentCount: count,
  since: epochMillis,
  eventCount: count,
  userCount: count,
  affectedUsers: z.array(affectedUser),
  decidedAt: epochMillis,
  // Records written before decisions carried them read as "not known".
  maxRiskScore: z.number().nullable().default(null),
  sources: strings.default(() => []),
};

const attachedEvents = { events: z.array(eventSummary), truncatedCount: count };

const webhookDecision = z.object({
  kind: z.literal('webhook'),
  channel: z.literal('webhook'),
  ...detectionUpdate,
  ...attachedEvents,
  providerIds: strings,
}) satisfies z.ZodType<WebhookDecision>;

const emailDecision = z.object({
  kind: z.literal('email'),
  channel: z.literal('email'),
  ...detectionUpdate,
  ...attachedEvents,
  recipients: strings,
}) satisfies z.ZodType<EmailDecision>;

const digestEntryDecision = z.object({
  kind: z.literal('digest-entry'),
  channel: z.literal('email'),
  ...detectionUpdate,
  recipients: strings,
  windowStart: epochMillis,
  windowEnd: epochMillis,
  entryKey: id,
  windowNewCount: count,
  windowBaseCount: count,
  windowSince: epochMillis,
}) satisfies z.ZodType<DigestEntryDecision>;

const investigationUpdate = {
  notificationId: id,
  investigationId: id,
  status: z.string(),
  outcome: z.string(),
  headline: z.string(),
  personName: z.string(),
  personEmail: z.string(),
  detectionId: z.string(),
  detectionName: z.string(),
  riskScore: z.number().nullable(),
  fingerprint: z.string(),
  decidedAt: epochMillis,
};

const investigationWebhookDecision = z.object({
  kind: z.literal('investigation-webhook'),
  channel: z.literal('webhook'),
  ...investigationUpdate,
  providerIds: strings,
}) satisfies z.ZodType<InvestigationWebhookDecision>;

const investigationEmailDecision = z.object({
  kind: z.literal('investigation-email'),
  channel: z.literal('email'),
  ...investigationUpdate,
  recipients: strings,
}) satisfies z.ZodType<InvestigationEmailDecision>;

/** Version 1: one command. */
export const notificationCommandSchema = z.object({
  version: z.literal(1),
  id: z.string(),
  emittedAt: epochMillis,
  decision: z.discriminatedUnion('kind', [
    webhookDecision,
    emailDecision,
    digestEntryDecision,
    investigationWebhookDecision,
    investigationEmailDecision,
  ]),
}) satisfies z.ZodType<NotificationCommand>;

/**
 * Version 2: the decisions of one recalculation of one detection, events and users by position.
 * The positions' range is checked by the reader, which resolves them.
 */
export const detectionCommandsRecordSchema = z.object({
  version: z.literal(2),
  emittedAt: epochMillis,
  people: z.array(stringPair),
  descriptions: strings,
  events: z.array(eventTuple),
  users: z.array(stringPair),
  decisions: z
    .array(
      z.discriminatedUnion('kind', [
        webhookDecision.extend({ affectedUsers: positions, events: positions }),
        emailDecision.extend({ affectedUsers: positions, events: positions }),
        digestEntryDecision.extend({ affectedUsers: positions }),
      ]) satisfies z.ZodType<SharedDecision>,
    )
    .min(1),
}) satisfies z.ZodType<DetectionCommandsRecord>;
