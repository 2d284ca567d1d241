import { invalid, valid, type DestinationValidation } from '../validation/destination-validation';
import { PAGERDUTY_LIMITS } from './pagerduty-limits';

/** A REST API key (20 characters, may hold `+`, `-` or `_`) is the usual mix-up. */
const REST_API_KEY = /^[A-Za-z0-9+_-]{20}$/;

/**
 * The integration key of an Events API v2 integration on a PagerDuty service (or of an event
 * ruleset, which starts with R): 32 letters and digits ("the 32 character Integration Key";
 * the API refuses a key with other characters). The key is a credential: anyone holding it can
 * open incidents. Store it as a secret and never log it.
 */
export function validatePagerDutyRoutingKey(
  input: unknown,
  field = 'routingKey',
): DestinationValidation<string> {
  if (typeof input !== 'string' || input.trim() === '') {
    return invalid(
      field,
      'Enter the integration key of the PagerDuty service’s Events API v2 integration',
    );
  }
  const key = input.trim();
  if (key.length !== PAGERDUTY_LIMITS.routingKeyLength) {
    const hint = REST_API_KEY.test(key)
      ? ': this looks like a REST API key; use the integration key of an Events API v2 integration'
      : '';
    return invalid(
      field,
      `must be ${PAGERDUTY_LIMITS.routingKeyLength} characters long, not ${key.length}${hint}`,
    );
  }
  const other = /[^A-Za-z0-9]/.exec(key);
  if (other) {
    return invalid(field, `must hold only letters and digits, not "${other[0]}"`);
  }
  return valid(key);
}
