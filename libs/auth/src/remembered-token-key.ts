import { hash } from 'node:crypto';

/**
 * What a process-local memory of tokens keys a token by: its SHA-256 in base64, never the value.
 * One-shot `hash`: several of these run on every request.
 */
export function rememberedTokenKey(token: string): string {
  return hash('sha256', token, 'base64');
}
