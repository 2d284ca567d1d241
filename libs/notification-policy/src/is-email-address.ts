const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * A pragmatic check of the addresses people type into a recipients list: dot-atom local part,
 * a domain of at least two labels and an alphabetic top-level label, RFC 5321 lengths. Quoted
 * local parts and IP-literal domains are refused on purpose (nobody types them; they are an
 * easy way to smuggle odd strings into mail headers).
 */
export function isEmailAddress(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return false;
  return /^[A-Za-z]{2,63}$/.test(labels[labels.length - 1]);
}
