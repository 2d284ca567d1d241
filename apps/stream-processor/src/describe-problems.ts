/** Problems of a record as one DLQ reason. */
export function describeProblems(
  what: string,
  errors: readonly { path: string; message: string }[],
): string {
  return `invalid ${what}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`;
}
