import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { configVariables, type ConfigVariable } from './load-config';

/** Where the generated reference lives, from the repository root. */
export const CONFIGURATION_REFERENCE_PATH = 'docs/configuration.md';

/** What the reference says of one variable. */
export interface VariableReference {
  type: string;
  default: string;
  meaning: string | undefined;
}

const BOOLEAN_WORDS = ['0', '1', 'false', 'no', 'true', 'yes'];

/** The type, default and meaning of a variable, read from its schema alone. */
export function describeVariable(schema: z.ZodType): VariableReference {
  let meaning: string | undefined;
  let fallback: string | undefined;
  let node: z.ZodType = schema;
  // Wrappers first (description, default, optional), then the input side of a pipe.
  for (;;) {
    meaning ??= node.description;
    if (node instanceof z.ZodDefault || node instanceof z.ZodPrefault) {
      fallback ??= defaultText(node.def.defaultValue);
      node = node.def.innerType as z.ZodType;
    } else if (node instanceof z.ZodOptional) {
      fallback ??= 'unset';
      node = node.def.innerType as z.ZodType;
    } else if (node instanceof z.ZodPipe) {
      if (node.out instanceof z.ZodArray)
        return { type: 'list, comma-separated', default: fallback ?? 'required', meaning };
      node = node.in as z.ZodType;
    } else {
      break;
    }
  }
  return { type: typeOf(node), default: fallback ?? 'required', meaning };
}

function defaultText(value: unknown): string {
  if (value === '') return 'empty';
  if (Array.isArray(value)) return `\`${value.join(',')}\``;
  return `\`${String(value)}\``;
}

function typeOf(node: z.ZodType): string {
  if (node instanceof z.ZodEnum) {
    const options = (node.options as (string | number)[]).map(String);
    if ([...options].sort().join() === BOOLEAN_WORDS.join()) return 'boolean';
    return `one of ${options.map((option) => `\`${option}\``).join(', ')}`;
  }
  if (node instanceof z.ZodNumber) return numberType(node);
  const format = (node as { format?: unknown }).format;
  if (format === 'url') return 'URL';
  if (format === 'email') return 'email address';
  return checkMessages(node)[0]?.replace(/^must be /, '') ?? 'text';
}

function numberType(node: z.ZodNumber): string {
  const json = z.toJSONSchema(node, { io: 'input' }) as Record<string, unknown>;
  const kind = json.type === 'integer' ? 'integer' : 'number';
  const low =
    typeof json.minimum === 'number' && json.minimum > Number.MIN_SAFE_INTEGER
      ? json.minimum
      : typeof json.exclusiveMinimum === 'number' && kind === 'integer'
        ? json.exclusiveMinimum + 1
        : undefined;
  // .int() bounds a number to the safe integers: no bound worth printing.
  const high =
    typeof json.maximum === 'number' && json.maximum < Number.MAX_SAFE_INTEGER
      ? json.maximum
      : undefined;
  if (low !== undefined && high !== undefined) return `${kind}, ${low}–${high}`;
  if (low !== undefined) return `${kind} ≥ ${low}`;
  if (high !== undefined) return `${kind} ≤ ${high}`;
  return kind;
}

/** The messages a schema's own checks give (a pattern's "a duration such as 24h", a refinement's). */
function checkMessages(node: z.ZodType): string[] {
  return (node.def.checks ?? []).flatMap((check) => {
    const error = (check._zod.def as { error?: (issue: object) => unknown }).error;
    const message = error?.({});
    return typeof message === 'string' ? [message] : [];
  });
}

/** Variables whose schema has no `.describe()`: each one a line saying what to do. */
export function undocumentedVariables(variables: ConfigVariable[] = configVariables()): string[] {
  return variables
    .filter(({ schema }) => !describeVariable(schema).meaning?.trim())
    .map(
      ({ section, variable }) =>
        `${variable} (section ${section}) has no description: end its schema in ` +
        `libs/config/src/load-config.ts with .describe('what it does and when to change it')`,
    );
}

/**
 * The sections each app asks `loadConfig` for, read from the apps' sources (their
 * `loadConfig([...])` calls), so the reference says who reads what without a list to keep.
 */
export function configReaders(rootDir: string): Map<string, string[]> {
  const readers = new Map<string, string[]>();
  const appsDir = join(rootDir, 'apps');
  for (const app of readdirSync(appsDir).sort()) {
    const sourceDir = join(appsDir, app, 'src');
    const sources = readdirSync(sourceDir, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !/\.(int-|e2e-)?spec\.ts$/.test(file),
    );
    for (const file of sources) {
      const text = readFileSync(join(sourceDir, file), 'utf8');
      for (const [, list] of text.matchAll(/loadConfig\(\s*\[([^\]]*)\]/g)) {
        for (const [, section] of list.matchAll(/'([A-Za-z]+)'/g)) {
          const apps = readers.get(section) ?? [];
          if (!apps.includes(app)) readers.set(section, [...apps, app].sort());
        }
      }
    }
  }
  return readers;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** docs/configuration.md: every section, who reads it, and each variable's type, default and meaning. */
export function renderConfigurationReference(
  readers: Map<string, string[]>,
  variables: ConfigVariable[] = configVariables(),
): string {
  const undocumented = undocumentedVariables(variables);
  if (undocumented.length > 0) throw new Error(undocumented.join('\n'));
  const lines = [
    '# Configuration reference',
    '',
    '<!-- Generated from libs/config/src/load-config.ts by `npm run docs:config`: edit the schemas there. -->',
    '',
    'Every app validates its environment once, at start-up, and refuses to start with a message naming',
    'each missing or wrong variable (a secret is named, never echoed). Variables come in sections; an app',
    'reads only the sections listed for it below, so it never fails on a variable it does not use. The',
    'all-in-one process (`npm start`) runs every app, so it reads every section. An empty value counts as',
    'unset. A boolean is `true`/`false`, `1`/`0` or `yes`/`no`; a duration is a number and a unit',
    '(`ms`, `s`, `m`, `h`, `d`), such as `90m`.',
  ];
  const sections = [...new Set(variables.map((entry) => entry.section))];
  for (const section of sections) {
    const apps = readers.get(section) ?? [];
    lines.push(
      '',
      `## ${section}`,
      '',
      apps.length > 0 ? `Read by: ${apps.join(', ')}.` : 'Read by no app.',
      '',
      '| variable | type | default | meaning |',
      '|---|---|---|---|',
    );
    for (const { variable, schema } of variables.filter((entry) => entry.section === section)) {
      const reference = describeVariable(schema);
      lines.push(
        `| \`${variable}\` | ${cell(reference.type)} | ${cell(reference.default)} | ${cell(reference.meaning ?? '')} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the reference of the repository at rootDir (npm run docs:config). */
export function writeConfigurationReference(rootDir: string): string {
  const path = join(rootDir, CONFIGURATION_REFERENCE_PATH);
  writeFileSync(path, renderConfigurationReference(configReaders(rootDir)));
  return path;
}
