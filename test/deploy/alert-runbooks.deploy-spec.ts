import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot, yamlDocuments } from './support/run-tool';

interface AlertRules {
  groups: { rules: { alert?: string; annotations?: { runbook?: string } }[] }[];
}

/** The anchors a Markdown renderer gives the headings of a file (GitHub's rule). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, text] of markdown.matchAll(/^#{1,6} (.+)$/gm)) {
    anchors.add(
      text
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    );
  }
  return anchors;
}

describe('alert runbooks', () => {
  it('points every alert at a heading of docs/operating.md that exists', () => {
    const [rules] = yamlDocuments(
      readFileSync(join(repositoryRoot, 'deploy/prometheus/alerts.yml'), 'utf8'),
    ) as AlertRules[];
    const anchors = headingAnchors(readFileSync(join(repositoryRoot, 'docs/operating.md'), 'utf8'));
    const alerts = rules.groups.flatMap((group) => group.rules).filter((rule) => rule.alert);
    expect(alerts.length).toBeGreaterThan(0);
    const broken = alerts
      .map((rule) => ({ alert: rule.alert, runbook: rule.annotations?.runbook ?? '(none)' }))
      .filter(({ runbook }) => {
        const [file, anchor] = runbook.split('#');
        return file !== 'docs/operating.md' || !anchors.has(anchor);
      });
    expect(broken).toEqual([]);
  });
});
