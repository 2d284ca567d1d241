/**
 * A small checker of values against the OpenAPI 3.0 schema subset our document uses: $ref,
 * type (with `nullable`), enum, required, properties, additionalProperties, items, minimum,
 * maximum and the formats `date-time` and `uri`. Returns every violation with its path, so a
 * failing assertion shows exactly where a response left the document.
 */
type Schema = Record<string, any>;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function schemaViolations(document: Schema, schema: Schema, value: unknown): string[] {
  const problems: string[] = [];
  check(document, schema, value, '$', problems);
  return problems;
}

/** The response schema the document declares for a path, method, status and JSON body. */
export function responseSchema(
  document: Schema,
  path: string,
  method: string,
  status: number,
): Schema {
  const operation = document.paths?.[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the document has no ${method} ${path}`);
  const response = operation.responses?.[String(status)];
  if (!response) throw new Error(`the document declares no ${status} for ${method} ${path}`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new Error(`the ${status} of ${method} ${path} has no JSON schema`);
  return schema as Schema;
}

/** The headers the document declares for a response (names lowercased). */
export function declaredHeaders(
  document: Schema,
  path: string,
  method: string,
  status: number,
): string[] {
  const headers = document.paths[path][method.toLowerCase()].responses[String(status)].headers;
  return Object.keys(headers ?? {}).map((name) => name.toLowerCase());
}

function resolve(document: Schema, schema: Schema): Schema {
  let current = schema;
  while (typeof current.$ref === 'string') {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .reduce<Schema | undefined>(
        (node, key) => node?.[key] as Schema | undefined,
        document,
      ) as Schema;
    if (!current) throw new Error(`unresolved $ref ${ref}`);
  }
  return current;
}

function check(document: Schema, raw: Schema, value: unknown, at: string, out: string[]): void {
  const schema = resolve(document, raw);
  if (value === null) {
    if (!schema.nullable) out.push(`${at}: null but not nullable`);
    return;
  }
  if (schema.enum && !schema.enum.includes(value)) {
    out.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        out.push(`${at}: expected an object`);
        return;
      }
      const record = value as Record<string, unknown>;
      for (const name of (schema.required ?? []) as string[]) {
        if (!(name in record)) out.push(`${at}: missing required ${name}`);
      }
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      for (const [name, item] of Object.entries(record)) {
        if (properties[name]) check(document, properties[name], item, `${at}.${name}`, out);
        else if (schema.additionalProperties === false) {
          out.push(`${at}: undeclared property ${name}`);
        }
      }
      return;
    }
    case 'array':
      if (!Array.isArray(value)) {
        out.push(`${at}: expected an array`);
        return;
      }
      value.forEach((item, i) => check(document, schema.items ?? {}, item, `${at}[${i}]`, out));
      return;
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        out.push(`${at}: expected a ${schema.type}`);
        return;
      }
      if (schema.type === 'integer' && !Number.isInteger(value)) out.push(`${at}: not an integer`);
      if (schema.minimum !== undefined && value < schema.minimum) out.push(`${at}: below minimum`);
      if (schema.maximum !== undefined && value > schema.maximum) out.push(`${at}: above maximum`);
      return;
    case 'string':
      if (typeof value !== 'string') {
        out.push(`${at}: expected a string`);
        return;
      }
      if (schema.format === 'date-time' && !DATE_TIME.test(value)) {
        out.push(`${at}: ${value} is not a date-time`);
      }
      if (schema.format === 'uri' && !URL.canParse(value)) out.push(`${at}: ${value} is not a URI`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') out.push(`${at}: expected a boolean`);
      return;
    case undefined:
      return;
    default:
      throw new Error(`unsupported schema type ${String(schema.type)} at ${at}`);
  }
}
