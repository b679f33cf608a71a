/**
 * File operations the install transaction needs. The CLI and the host use `nodeInstallIo`
 * (`@orca/hook-templates/node-io`), a host its guests' fs bridge, tests a map.
 */
export interface InstallIo {
  /** The file's text, or null when it does not exist (or cannot be read). */
  readText(path: string): Promise<string | null>;
  /** temp → chmod → rename; symlinks are written through to their target. */
  writeAtomic(path: string, content: string, mode: number): Promise<void>;
  /** Delete the file; a missing file is not an error. */
  remove(path: string): Promise<void>;
}
