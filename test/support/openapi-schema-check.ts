/**
 * A small checker of values against the OpenAPI 3.0 schema subset our documents use: $ref,
 * oneOf, anyOf, type (with `nullable`), enum, required, properties, additionalProperties, items,
 * minItems, minimum, maximum, minLength, maxLength, pattern and the formats `date-time` and
 * `uri`. Returns every violation with its path, so a failing assertion shows exactly where a
 * response (or a request) left the document.
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

/** The JSON schema the document declares for a request body of a path and method. */
export function requestSchema(document: Schema, path: string, method: string): Schema {
  const operation = document.paths?.[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the document has no ${method} ${path}`);
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${path} declares no JSON request body`);
  return schema as Schema;
}

/**
 * What makes a document unusable by a client generator: an operation without an operationId,
 * two operations with the same one, a $ref that points nowhere.
 */
export function documentProblems(document: Schema): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Schema)) {
      const where = `${method.toUpperCase()} ${path}`;
      const id = (operation as Schema).operationId;
      if (typeof id !== 'string' || id === '') problems.push(`${where}: no operationId`);
      else if (seen.has(id)) problems.push(`${where}: operationId ${id} is also ${seen.get(id)}'s`);
      else seen.set(id, where);
    }
  }
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${at}[${i}]`));
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          try {
            resolve(document, { $ref: value });
          } catch (error) {
            problems.push(`${at}: ${(error as Error).message}`);
          }
        } else visit(value, `${at}.${key}`);
      }
    }
  };
  visit(document, '$');
  return problems;
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
  for (const [keyword, exactlyOne] of [
    ['oneOf', true],
    ['anyOf', false],
  ] as const) {
    if (!schema[keyword]) continue;
    const matching = (schema[keyword] as Schema[]).filter(
      (branch) => schemaViolations(document, branch, value).length === 0,
    ).length;
    if (matching === 0 || (exactlyOne && matching > 1)) {
      out.push(`${at}: matches ${matching} of the ${keyword} schemas`);
    }
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
      if (schema.minItems !== undefined && value.length < schema.minItems) {
        out.push(`${at}: fewer than ${schema.minItems} items`);
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
      if (schema.minLength !== undefined && value.length < schema.minLength) {
        out.push(`${at}: shorter than ${schema.minLength}`);
      }
      if (schema.maxLength !== undefined && value.length > schema.maxLength) {
        out.push(`${at}: longer than ${schema.maxLength}`);
      }
      if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
        out.push(`${at}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
      }
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

/** An answer a test saw, with the documented path (`/x/{id}`) and method that got it. */
export interface RecordedAnswer {
  method: string;
  path: string;
  response: { status: number; headers: Headers; body: unknown };
}

/**
 * How the recorded answers leave the document (a status it does not declare, a body off its
 * schema, a declared header missing, no x-request-id), and which `METHOD path → status` they
 * covered, so a suite can also check that it saw what it means to.
 */
export function answerProblems(
  document: Schema,
  recorded: readonly RecordedAnswer[],
): { problems: string[]; covered: Set<string> } {
  const problems: string[] = [];
  const covered = new Set<string>();
  for (const { method, path, response } of recorded) {
    const where = `${method} ${path} → ${response.status}`;
    covered.add(where);
    if (!response.headers.get('x-request-id')) problems.push(`${where}: no x-request-id`);
    let schema;
    try {
      schema = responseSchema(document, path, method, response.status);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    for (const violation of schemaViolations(document, schema, response.body)) {
      problems.push(`${where}: ${violation}`);
    }
    for (const header of declaredHeaders(document, path, method, response.status)) {
      if (response.headers.get(header) === null) problems.push(`${where}: no ${header} header`);
    }
  }
  return { problems, covered };
}
