export {
  QUERYABLE_FIELDS,
  QUERYABLE_FIELD_NAMES,
  isQueryableField,
  normalizeEmployeeEmail,
  type FieldName,
  type FieldType,
} from './event-fields';
export {
  COMPARISON_OPERATORS,
  type AndNode,
  type BooleanLiteral,
  type ComparisonNode,
  type ComparisonOperator,
  type ConditionNode,
  type InNode,
  type Literal,
  type MatchAllNode,
  type NotNode,
  type NumberLiteral,
  type OrNode,
  type QueryNode,
  type StringLiteral,
  type TimestampLiteral,
} from './query-ast';
export { QueryError, type QueryErrorDetails } from './query-error';
export { QUERY_LIMITS } from './query-limits';
export { tokenize, type Token, type TokenKind } from './lexer';
export {
  parseUtcTimestamp,
  formatUtcTimestamp,
  type UtcTimestampResult,
} from './parse-utc-timestamp';
export { parseQuery } from './parse-query';
export { printQuery, printLiteral } from './print-query';
export {
  compileToElasticsearch,
  type ElasticsearchBool,
  type ElasticsearchQuery,
  type ElasticsearchRange,
  type ElasticsearchTermValue,
} from './compile-to-elasticsearch';
export {
  compileToSql,
  type CompileToSqlOptions,
  type SqlParam,
  type SqlWhere,
} from './compile-to-sql';
export { evaluateQuery, compareCodePoints, type QueryableEvent } from './evaluate-query';
