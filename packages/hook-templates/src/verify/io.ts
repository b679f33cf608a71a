/** Result of one process run by the verifier. */
export interface VerifyRun {
  code: number | null;
  stdout: string;
  stderr: string;
  epipe: boolean;
}

/** One request seen by the verifier's loopback server. */
export interface VerifyRequest {
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Buffer;
}

/** A loopback server owned by the verifier. */
export interface VerifyServer {
  port: number;
  requests: VerifyRequest[];
  close(): Promise<void>;
}

/** Everything the verifier does to the outside world (injected; `nodeVerifyIo` is the real one). */
export interface VerifyIo {
  readText(path: string): Promise<string | null>;
  writeFile(path: string, content: string, mode: number): Promise<void>;
  tempDir(): Promise<string>;
  removeDir(path: string): Promise<void>;
  /** Absolute path of an executable, or undefined. */
  which(bin: string): Promise<string | undefined>;
  run(argv: readonly string[], opts: { env: Record<string, string>; input: Buffer }): Promise<VerifyRun>;
  startServer(): Promise<VerifyServer>;
  deadPort(): Promise<number>;
}
