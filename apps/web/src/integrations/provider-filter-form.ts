import { type WebhookProviderError } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type ProviderFilter } from '@vigil/notification-policy';
import { textField } from '../views/form-field';
import { radioGroup } from '../views/radio-group';

export const FILTER_SUBJECT_CHOICES: readonly {
  key: ProviderFilter['subjects'];
  label: string;
  description: string;
}[] = [
  { key: 'all', label: 'Detections and investigations', description: 'Every notification.' },
  { key: 'detections', label: 'Detections only', description: 'New events of a detection.' },
  {
    key: 'investigations',
    label: 'Investigations only',
    description: 'Completed investigations and their updates.',
  },
];

/** A provider's filter as typed: re-rendered unchanged when refused. */
export interface FilterFormValues {
  readonly filterSubjects: string;
  readonly filterMinRiskScore: string;
  /** Source names separated by commas (or lines). */
  readonly filterSources: string;
}

export interface FilterFormErrors {
  filterSubjects?: string;
  filterMinRiskScore?: string;
  filterSources?: string;
}

export const EMPTY_FILTER_FORM: FilterFormValues = {
  filterSubjects: 'all',
  filterMinRiskScore: '',
  filterSources: '',
};

/** Where each filter field's error links to in a page's error summary. */
export const FILTER_FIELD_ANCHORS: readonly [keyof FilterFormErrors, string][] = [
  ['filterSubjects', `#filterSubjects-${FILTER_SUBJECT_CHOICES[0].key}`],
  ['filterMinRiskScore', '#filterMinRiskScore'],
  ['filterSources', '#filterSources'],
];

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function readFilterForm(body: Record<string, unknown>): FilterFormValues {
  return {
    filterSubjects: text(body.filterSubjects) || 'all',
    filterMinRiskScore: text(body.filterMinRiskScore),
    filterSources: text(body.filterSources),
  };
}

/** A stored filter as the form shows it. */
export function filterFormValuesOf(filter: ProviderFilter): FilterFormValues {
  return {
    filterSubjects: filter.subjects,
    filterMinRiskScore: filter.minRiskScore === null ? '' : String(filter.minRiskScore),
    filterSources: filter.sources.join(', '),
  };
}

/** The filter as the provider rules take it: they check every field (validateProviderFilter). */
export function filterInputOf(values: FilterFormValues): Record<string, unknown> {
  return {
    subjects: values.filterSubjects,
    minRiskScore: values.filterMinRiskScore,
    sources: values.filterSources
      .split(/[,\n]/)
      .map((source) => source.trim())
      .filter(Boolean),
  };
}

/** The refused filter fields (`filter.<field>`) of a provider refusal, by form field. */
export function filterErrorsOf(error: WebhookProviderError): FilterFormErrors {
  const errors: FilterFormErrors = {};
  for (const { field, message } of error.fieldErrors) {
    const sentence = (label: string) => {
      const said = /^[a-z"]/.test(message) ? `${label} ${message}` : message;
      return said.endsWith('.') || said.endsWith(')') ? said : `${said}.`;
    };
    if (field === 'filter.subjects') errors.filterSubjects = sentence('The choice');
    else if (field === 'filter.minRiskScore') errors.filterMinRiskScore = sentence('The minimum');
    else if (field.startsWith('filter.sources')) {
      // An unknown name's message names it; several are said together.
      const said = /^"/.test(message) ? `${message}.` : sentence('The sources');
      errors.filterSources =
        errors.filterSources === undefined ? said : `${errors.filterSources} ${said}`;
    }
  }
  return errors;
}

/** Whether a refusal is about the filter only. */
export function isFilterRefusal(error: WebhookProviderError): boolean {
  return (
    error.fieldErrors.length > 0 && error.fieldErrors.every((e) => e.field.startsWith('filter.'))
  );
}

/** The filter's fields, for the enrollment form and the provider's filter form. */
export function filterFields(values: FilterFormValues, errors: FilterFormErrors): SafeHtml {
  return html`${radioGroup({
    name: 'filterSubjects',
    legend: 'Receives',
    value: values.filterSubjects,
    error: errors.filterSubjects,
    options: FILTER_SUBJECT_CHOICES,
  })}
  ${textField({
    id: 'filterMinRiskScore',
    name: 'filterMinRiskScore',
    label: 'Minimum risk score',
    hint: 'Only notifications whose highest risk score is at least this (for example 7). Empty for every score; with a minimum, a notification without a score is skipped.',
    error: errors.filterMinRiskScore,
    value: values.filterMinRiskScore,
    inputmode: 'decimal',
    maxlength: 20,
    width: 'narrow',
  })}
  ${textField({
    id: 'filterSources',
    name: 'filterSources',
    label: 'Sources',
    hint: 'Only detections with events from one of these sources, separated by commas (for example “okta, github”). Empty for every source. Investigations are not filtered by source.',
    error: errors.filterSources,
    value: values.filterSources,
    maxlength: 2000,
    spellcheck: false,
  })}`;
}

/** A filter in words, for the provider's page. */
export function describeFilter(filter: ProviderFilter): string {
  const parts = [FILTER_SUBJECT_CHOICES.find((c) => c.key === filter.subjects)!.label];
  if (filter.minRiskScore !== null) parts.push(`risk score ${filter.minRiskScore} and above`);
  if (filter.sources.length > 0) parts.push(`from ${filter.sources.join(', ')}`);
  return parts.length === 1 && filter.subjects === 'all' ? 'Every notification' : parts.join('; ');
}
