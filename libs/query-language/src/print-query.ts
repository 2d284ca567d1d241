import { type ConditionNode, type Literal, type QueryNode } from './query-ast';

/**
 * Prints the canonical text of an AST: keywords in uppercase, booleans as `true`/`false`, numbers in
 * JavaScript's shortest round-trip form (`1e+21`, `-2.5`), strings single-quoted with `''`
 * escapes, timestamps as originally written, single spaces, and parentheses only where needed
 * (an `and`/`or` child of an `and`, an `or` child of an `or`, an `and`/`or` under NOT).
 *
 * For every AST produced by `parseQuery`, `parseQuery(printQuery(ast))` deep-equals `ast`.
 * `match_all` prints as the empty string.
 */
export function printQuery(ast: QueryNode): string {
  return ast.kind === 'match_all' ? '' : printCondition(ast);
}

function printCondition(node: ConditionNode): string {
  switch (node.kind) {
    case 'and':
      return node.children
        .map((child) =>
          child.kind === 'and' || child.kind === 'or'
            ? `(${printCondition(child)})`
            : printCondition(child),
        )
        .join(' AND ');
    case 'or':
      return node.children
        .map((child) =>
          child.kind === 'or' ? `(${printCondition(child)})` : printCondition(child),
        )
        .join(' OR ');
    case 'not':
      return node.child.kind === 'and' || node.child.kind === 'or'
        ? `NOT (${printCondition(node.child)})`
        : `NOT ${printCondition(node.child)}`;
    case 'comparison':
      return `${node.field} ${node.op} ${printLiteral(node.value)}`;
    case 'in':
      return `${node.field} IN (${node.values.map(printLiteral).join(', ')})`;
  }
}

/** The query-language text of a literal. */
export function printLiteral(literal: Literal): string {
  switch (literal.type) {
    case 'string':
      return `'${literal.value.replace(/'/g, "''")}'`;
    case 'number':
      return String(literal.value);
    case 'boolean':
      return literal.value ? 'true' : 'false';
    case 'timestamp':
      return `'${literal.text}'`;
  }
}
