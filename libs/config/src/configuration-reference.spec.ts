import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  CONFIGURATION_REFERENCE_PATH,
  configReaders,
  describeVariable,
  renderConfigurationReference,
  undocumentedVariables,
} from './configuration-reference';
import type { ConfigVariable } from './load-config';

const ROOT = join(__dirname, '..', '..', '..');

describe('the configuration reference', () => {
  it('has a description for every variable of every section', () => {
    expect(undocumentedVariables()).toEqual([]);
  });

  it('is docs/configuration.md as generated from the schemas now (run npm run docs:config)', () => {
    const written = readFileSync(join(ROOT, CONFIGURATION_REFERENCE_PATH), 'utf8');
    expect(written).toBe(renderConfigurationReference(configReaders(ROOT)));
  });

  it('names a variable added without a description, its section and what to do', () => {
    const variables: ConfigVariable[] = [
      { section: 'api', variable: 'API_PORT', schema: z.string().describe('The port.') },
      { section: 'api', variable: 'API_NEW_KNOB', schema: z.coerce.number().default(3) },
    ];
    expect(undocumentedVariables(variables)).toEqual([
      "API_NEW_KNOB (section api) has no description: end its schema in libs/config/src/load-config.ts with .describe('what it does and when to change it')",
    ]);
    expect(() => renderConfigurationReference(new Map(), variables)).toThrow(
      /API_NEW_KNOB \(section api\) has no description/,
    );
  });

  it('finds who reads a section from the apps’ loadConfig calls', () => {
    const readers = configReaders(ROOT);
    expect(readers.get('ingest')).toEqual(['ingest']);
    expect(readers.get('demoInbox')).toEqual(['all-in-one']);
    expect(readers.get('runtime')).toEqual(expect.arrayContaining(['api', 'cli', 'web']));
  });
});

describe('describeVariable', () => {
  it('reads the meaning wherever .describe() sits among the wrappers', () => {
    expect(describeVariable(z.string().describe('Inner.').default('x')).meaning).toBe('Inner.');
    expect(describeVariable(z.string().default('x').describe('Outer.')).meaning).toBe('Outer.');
    expect(describeVariable(z.string().optional()).meaning).toBeUndefined();
  });

  it('gives the default as it is written in the environment, or says unset or required', () => {
    expect(describeVariable(z.coerce.number().int().default(600)).default).toBe('`600`');
    expect(describeVariable(z.string().default('')).default).toBe('empty');
    expect(describeVariable(z.string().optional()).default).toBe('unset');
    expect(describeVariable(z.string()).default).toBe('required');
    const duration = z
      .string()
      .regex(/^\d+h$/, 'a duration such as 24h')
      .transform((text) => Number.parseInt(text, 10) * 3_600_000);
    expect(describeVariable(duration.prefault('24h'))).toMatchObject({
      type: 'a duration such as 24h',
      default: '`24h`',
    });
  });

  it('names the type from the schema: ranges, choices, booleans, formats, lists', () => {
    const type = (schema: z.ZodType) => describeVariable(schema).type;
    expect(type(z.coerce.number().int().min(0).max(65535))).toBe('integer, 0–65535');
    expect(type(z.coerce.number().int().positive())).toBe('integer ≥ 1');
    expect(type(z.coerce.number().int().positive().max(36_500))).toBe('integer, 1–36500');
    expect(type(z.enum(['on', 'off']))).toBe('one of `on`, `off`');
    expect(type(z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform(Boolean))).toBe(
      'boolean',
    );
    expect(type(z.url().optional())).toBe('URL');
    expect(type(z.email())).toBe('email address');
    expect(type(z.string().refine(Boolean, 'must be 32 bytes in base64'))).toBe(
      '32 bytes in base64',
    );
    const csv = z
      .string()
      .transform((text) => text.split(','))
      .pipe(z.array(z.string()).min(1));
    expect(type(csv.optional())).toBe('list, comma-separated');
    expect(type(z.string().min(1))).toBe('text');
  });
});
