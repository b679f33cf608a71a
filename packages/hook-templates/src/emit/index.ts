export { emitBatch } from './batch.ts';
export { emitPosix, FORM_FIELDS, POSIX_STDIN_READER } from './posix.ts';
export { BOUNDED_READER_PY } from './posix-reader.ts';
export { emitPwsh } from './pwsh.ts';
export { emitFor, emitScript, scriptFileName } from './script.ts';
