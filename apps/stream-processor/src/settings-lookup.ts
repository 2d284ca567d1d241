import type { SettingsCache } from '@vigil/control-plane';

/** The part of the settings cache the partitions read (a test passes its own). */
export type SettingsLookup = Pick<SettingsCache, 'effective'>;
