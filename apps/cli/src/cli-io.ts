/** What the CLI reads and writes: the process's streams and environment, or a test's. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** The environment, read once through @vigil/config. */
  readonly env: Record<string, string | undefined>;
  /** Reads all of standard input (passwords are piped, never passed as arguments). */
  readonly stdin?: () => Promise<string>;
}
