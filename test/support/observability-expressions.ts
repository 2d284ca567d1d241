import { readFileSync } from 'node:fs';

export interface PanelExpression {
  panel: string;
  expr: string;
}

interface Panel {
  title?: string;
  type?: string;
  targets?: { expr?: string }[];
  panels?: Panel[];
}

/**
 * Grafana's variables, as a test substitutes them before sending a panel's expression to
 * Prometheus: the rate interval becomes a window that covers several one-second scrapes.
 */
const GRAFANA_VARIABLES: [RegExp, string][] = [
  [/\$__rate_interval\b/g, '30s'],
  [/\$__interval\b/g, '5s'],
  [/\$__range\b/g, '5m'],
];

/** Every query of every panel of a Grafana dashboard file, rows' panels included. */
export function dashboardExpressions(file: string): PanelExpression[] {
  const dashboard = JSON.parse(readFileSync(file, 'utf8')) as { panels: Panel[] };
  const found: PanelExpression[] = [];
  const visit = (panels: Panel[]) => {
    for (const panel of panels) {
      for (const target of panel.targets ?? []) {
        if (target.expr) found.push({ panel: panel.title ?? '(untitled)', expr: target.expr });
      }
      visit(panel.panels ?? []);
    }
  };
  visit(dashboard.panels);
  return found.map(({ panel, expr }) => ({
    panel,
    expr: GRAFANA_VARIABLES.reduce((text, [name, value]) => text.replace(name, value), expr),
  }));
}

/**
 * The instant-vector selectors of a PromQL expression (`name{matchers}`), without their range or
 * offset: a conditional alert returns nothing while all is well, so a test checks instead that
 * each series it looks at exists. Names are those of Vigil's metrics and `up`; function names,
 * `by (...)` labels and keywords are not selectors.
 */
export function metricSelectors(expr: string): string[] {
  const selectors = new Set<string>();
  for (const match of expr.matchAll(/\b(vigil_[a-z0-9_]+|up)\b(\{[^}]*\})?/g)) {
    selectors.add(`${match[1]}${match[2] ?? ''}`);
  }
  return [...selectors];
}
