import { InvalidNotificationSettingsError } from '@vigil/control-plane';
import { type SettingsFieldError } from '@vigil/notification-policy';
import { WorkspaceError } from '../workspace-error';

export function invalidSettings(problems: readonly SettingsFieldError[]): WorkspaceError {
  return new WorkspaceError('invalid_settings', 'The notification settings are invalid', problems);
}

/** Runs a save; the store's own refusal becomes the same error as the draft's. */
export async function saveSettings<T>(save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (error instanceof InvalidNotificationSettingsError) throw invalidSettings(error.errors);
    throw error;
  }
}
