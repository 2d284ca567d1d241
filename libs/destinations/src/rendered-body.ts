/**
 * A request body rendered once when the delivery is created: the notifier stores `body` as it is
 * (the deliveries' `json` column keeps text exactly) and sends it unchanged on every attempt.
 */
export interface RenderedBody {
  contentType: 'application/json';
  body: string;
}

export function jsonBody(value: unknown): RenderedBody {
  return { contentType: 'application/json', body: JSON.stringify(value) };
}
