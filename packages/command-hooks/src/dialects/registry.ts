import type { Dialect } from '../hook.ts';
import type { DialectAdapter } from './adapter.ts';
import { claudeDialect } from './claude.ts';
import { cursorDialect } from './cursor.ts';
import { orcaDialect } from './orca.ts';

/** Adapter of each dialect. */
export const DIALECTS: Readonly<Record<Dialect, DialectAdapter>> = {
  claude: claudeDialect,
  cursor: cursorDialect,
  orca: orcaDialect,
};
