import type { ChannelState, DetectionState } from './detection-state';

/** A channel's bookkeeping as any version of the processor wrote it. */
export type StoredChannelState = Omit<ChannelState, 'newMaxRiskScore' | 'newSources'> &
  Partial<Pick<ChannelState, 'newMaxRiskScore' | 'newSources'>>;

interface StoredChannels {
  channels: { webhook: StoredChannelState; email: StoredChannelState };
}

/** A detection's state as any version of the processor wrote it. */
export type StoredDetectionState = Omit<DetectionState, 'channels'> & StoredChannels;

/**
 * A state read back from the changelog (or the read model fed by it) with every field the
 * current code reads: a channel written before the new events' risk scores and sources were
 * kept reports them as not known (null, none) until its next notification. Whatever else the
 * record holds is kept as it is.
 */
export function restoreDetectionState<S extends StoredChannels>(
  stored: S,
): Omit<S, 'channels'> & { channels: DetectionState['channels'] } {
  const { webhook, email } = stored.channels;
  return {
    ...stored,
    channels: { webhook: restoreChannel(webhook), email: restoreChannel(email) },
  };
}

function restoreChannel(channel: StoredChannelState): ChannelState {
  return {
    ...channel,
    newMaxRiskScore: channel.newMaxRiskScore ?? null,
    newSources: channel.newSources ?? [],
  };
}
