import escapeHtml from 'escape-html';

/** Markup that is already safe to send: built by `html` or deliberately trusted. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation =
  SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * The only way pages are built: every interpolated value is escaped unless it is SafeHtml
 * (another `html` fragment). Arrays are concatenated; null, undefined and false render nothing,
 * so `${cond && html`…`}` works.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new SafeHtml(out);
}

/** An attribute that is present or absent (`disabled`, `selected`, `aria-invalid`). */
export function flag(name: string, on: boolean): SafeHtml {
  return new SafeHtml(on ? ` ${escapeHtml(name)}` : '');
}
