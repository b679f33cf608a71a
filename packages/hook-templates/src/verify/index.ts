export { decodeFormBody, trimTrailingNewlines } from './form.ts';
export type { VerifyIo, VerifyRequest, VerifyRun, VerifyServer } from './io.ts';
export { nodeVerifyIo, VERIFY_RUN_KILL_MS } from './node-io.ts';
export {
  formatVerifyReport,
  VERIFY_PAYLOAD_BYTES,
  VERIFY_SHELLS,
  VERIFY_STANDIN_EXIT_CODE,
  type VerifyCheck,
  type VerifyOptions,
  type VerifyReport,
  verifyHome,
} from './verify.ts';
