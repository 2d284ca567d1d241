/**
 * The columns that hold sealed secrets, each row's value sealed for `<table>/<id>` (so a value
 * moves between the columns of its own row, as a rotation does, but not to another row). Key
 * rotation, the sealing of rows written before encryption and the start-up key check go over
 * every column listed here: a new kind of stored secret is added here.
 */
export interface SealedColumn {
  readonly table: string;
  readonly column: string;
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'webhook_providers', column: 'secret' },
  { table: 'webhook_providers', column: 'previous_secret' },
  { table: 'webhook_providers', column: 'destination_credential' },
];

/** The associated data a secret of row `id` of `table` is sealed with. */
export function sealingContext(table: string, id: string): string {
  return `${table}/${id}`;
}
