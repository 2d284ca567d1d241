import { html, type SafeHtml } from '@vigil/http';
import {
  type DetectionNotificationPreview,
  type PreviewChannel,
  type PreviewPayload,
  type PreviewTarget,
} from '@vigil/workspace';
import { type Viewer } from '../security/signed-in-session.decorator';
import { dataTable } from '../views/data-table';
import { formatDate } from '../views/format-date';
import { appPage, pageHeader } from '../views/layout';
import { warningStatus } from '../views/warning-status';
import { detectionPath } from './detection-format';
import { DETECTIONS_PATH } from './detection-list-page';

export function dryRunPath(detectionId: string): string {
  return `${detectionPath(detectionId)}/dry-run`;
}

const CHANNEL_TITLES: Readonly<Record<PreviewChannel['channel'], string>> = {
  webhook: 'Webhooks',
  email: 'Email',
  digest: 'Email digest (Batch)',
};

const NO_TARGETS: Readonly<Record<PreviewChannel['channel'], string>> = {
  webhook: 'No provider is selected.',
  email: 'No recipient is set.',
  digest: 'No recipient is set.',
};

const CHANNEL_TARGETS: Readonly<Record<PreviewChannel['channel'], string>> = {
  webhook: 'Provider',
  email: 'Recipient',
  digest: 'Recipient',
};

function moment(at: number): SafeHtml {
  return html`<time datetime="${new Date(at).toISOString()}">${formatDate(new Date(at))}</time>`;
}

function verdictBadge(sends: boolean): SafeHtml {
  return sends
    ? html`<span class="badge badge-active">Would send</span>`
    : html`<span class="badge badge-expired">Sends nothing</span>`;
}

function targetName(target: PreviewTarget): SafeHtml {
  return target.name === null
    ? html`Provider no longer enrolled<span class="cell-sub mono">${target.id}</span>`
    : html`${target.name}`;
}

/** When it is sent, or why not; a channel's own reason is said once, in its header. */
function targetOutcome(channel: PreviewChannel, target: PreviewTarget): string {
  if (target.sends) return channel.summary;
  if (!channel.fires && target.reasonCode === channel.reasonCode) return 'For the reason above.';
  return target.reason ?? '';
}

function targetRow(channel: PreviewChannel, target: PreviewTarget): SafeHtml {
  return html`<tr>
    <td class="cell-name">${targetName(target)}</td>
    <td>${verdictBadge(target.sends)}</td>
    <td>${targetOutcome(channel, target)}</td>
  </tr>`;
}

/** The body as it would leave: JSON laid out for reading, an email's subject and text. */
function payloadBlock(label: string, payload: PreviewPayload): SafeHtml {
  const body =
    payload.kind === 'webhook'
      ? JSON.stringify(JSON.parse(payload.body) as unknown, null, 2)
      : `Subject: ${payload.subject}\n\n${payload.text}`;
  return html`<details class="payload">
    <summary>${label}</summary>
    <pre class="payload-body" tabindex="0">${body}</pre>
  </details>`;
}

function channelPayloads(channel: PreviewChannel): SafeHtml {
  const blocks: SafeHtml[] = [];
  for (const target of channel.targets) {
    if (target.payload !== null) {
      blocks.push(payloadBlock(`Payload for ${target.name ?? target.id} (JSON)`, target.payload));
    }
  }
  if (channel.payload !== null) {
    blocks.push(
      payloadBlock(
        channel.channel === 'digest'
          ? 'This detection in the digest (text part)'
          : 'The email (text part)',
        channel.payload,
      ),
    );
  }
  if (blocks.length === 0) return html``;
  return html`<div class="card-body payloads">${blocks}</div>`;
}

function channelCard(channel: PreviewChannel): SafeHtml {
  const id = `dry-run-${channel.channel}`;
  const title = CHANNEL_TITLES[channel.channel];
  return html`<section class="card" id="${id}" aria-labelledby="${id}-heading">
    <div class="card-header split">
      <div>
        <h2 id="${id}-heading">${title}</h2>
        <p>${channel.fires ? html`Would send: ${channel.summary}.` : channel.summary}</p>
      </div>
      ${verdictBadge(channel.fires)}
    </div>
    ${
      channel.targets.length === 0
        ? html`<div class="card-body">
            <p class="muted">${NO_TARGETS[channel.channel]}</p>
          </div>`
        : dataTable({
            caption: `${title}: each ${CHANNEL_TARGETS[channel.channel].toLowerCase()}, whether it would be sent to, and when or why not`,
            className: 'dry-run-targets',
            columns: [
              { label: CHANNEL_TARGETS[channel.channel] },
              { label: 'Now' },
              { label: 'When, or why not' },
            ],
            rows: channel.targets.map((target) => targetRow(channel, target)),
          })
    }
    ${channelPayloads(channel)}
  </section>`;
}

function hasPayload(channel: PreviewChannel): boolean {
  return channel.payload !== null || channel.targets.some((target) => target.payload !== null);
}

function basis(preview: DetectionNotificationPreview): SafeHtml {
  const settings =
    preview.settingsSource === 'custom'
      ? 'this detection’s own notification settings'
      : 'the global notification settings';
  return html`<p class="dry-run-basis">
    Computed at ${moment(preview.at)} by the notification rules themselves, from the state the
    processor recorded at ${moment(preview.recordedAt!)} (event count ${preview.count ?? 0}) and
    ${settings}. That state reaches this page a few seconds after the processor records it: a
    notification sent in the last seconds may not show yet. Reload to compute again.
  </p>`;
}

/**
 * "What would be sent now" for a detection: each channel and target, whether it would be sent
 * to and when, or why not, with the payloads. For everyone signed in: it shows only what the
 * detection's page shows.
 */
export function detectionDryRunPage(
  viewer: Viewer,
  preview: DetectionNotificationPreview,
): SafeHtml {
  const name = preview.detectionName || preview.detectionId;
  const content =
    preview.recordedAt === null
      ? warningStatus(
          'No notification state recorded yet',
          'The processor has not recorded this detection’s notification state yet, or it has not reached this page (it follows within seconds). Reload in a moment.',
        )
      : html`${basis(preview)} ${preview.channels.map(channelCard)}
        ${
          preview.channels.some(hasPayload) &&
          html`<p class="muted dry-run-note">
            Payloads are rendered as the notifier renders them, but for the delivery id, a
            placeholder: the notifier assigns the real one when it creates the delivery.
          </p>`
        }`;
  return appPage(
    viewer,
    { title: `What would be sent now · ${name}`, path: DETECTIONS_PATH },
    html`${pageHeader({
      breadcrumb: [
        { label: 'Monitor' },
        { label: 'Detections', href: DETECTIONS_PATH },
        { label: name, href: `${detectionPath(preview.detectionId)}#notifications` },
      ],
      title: 'What would be sent now',
      description: `Notifications about ${name}, if the rules were applied now.`,
    })}
    ${content}`,
  );
}
