/**
 * A schema migration. Migrations are TypeScript modules exporting their SQL, so they are part of
 * the compiled build (tsc copies no .sql files) and of any bundle, with no path to resolve.
 * Never edit one that has shipped: add the next number instead (the runner refuses a changed
 * checksum).
 */
export interface Migration {
  /** `NNNN_name`, applied in ascending order. */
  readonly id: string;
  readonly sql: string;
}
