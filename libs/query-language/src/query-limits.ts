/** Limits enforced by `parseQuery`; exceeding any of them is a `QueryError`, never a crash. */
export const QUERY_LIMITS = Object.freeze({
  /** Maximum query size in bytes of its UTF-8 encoding. */
  maxBytes: 8192,
  /** Maximum number of conditions (comparisons; an IN list counts as one). */
  maxConditions: 256,
  /** Maximum nesting of parentheses and NOT in the text (guards the recursive parser). */
  maxNestingDepth: 64,
  /**
   * Maximum nesting of AND / OR / NOT nodes in the AST. Compiled Elasticsearch queries are at most
   * this + 3 levels deep, safely below Elasticsearch's `indices.query.bool.max_nested_depth`
   * (30 by default in 8.x).
   */
  maxBooleanDepth: 24,
});
