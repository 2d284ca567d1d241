/** The scope of the global fallback destination; any other scope is a detection's id. */
export const GLOBAL_FALLBACK_SCOPE = '*';
export const MAX_FALLBACK_RECIPIENTS = 20;

/**
 * Who receives a delivery that died after its last retry (with the original target and the
 * failure), once: a provider, recipients, or both.
 */
export interface FallbackDestination {
  providerId: string | null;
  recipients: string[];
}

/** A fallback destination as stored and shown. */
export interface FallbackDestinationView extends FallbackDestination {
  /** `*` for the global one, else the detection's id. */
  scope: string;
  /** The provider's name, null when there is no provider (or it was deleted since). */
  providerName: string | null;
  updatedAt: Date;
}

/** A fallback destination as entered: both fields optional, blank meaning none. */
export interface FallbackDestinationInput {
  providerId?: string | null;
  /** Addresses as a list, or as typed (separated by commas, spaces or new lines). */
  recipients?: readonly string[] | string;
}
