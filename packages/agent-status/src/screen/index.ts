export { endsInKeyName, type MenuSpan, matchClaudePermissionMenu, matchCursorApproval } from './approval-menus.ts';
export { type BlockedSignal, findBlockedSignal } from './blocked-signal.ts';
export { composerAtBottom, composerKnown } from './composers.ts';
export { codexCancelBelow, codexComposerAtBottom, findReadyPromptBelow, type ReadyPromptKind } from './dismissal.ts';
export {
  buildMatchWindow,
  type MatchWindow,
  normalizeLine,
  screenHasContent,
  type WindowLine,
  windowFromScreen,
  windowFromTail,
} from './match-window.ts';
export { createScreenWaitStamp, type ScreenWaitStamp } from './screen-wait-stamp.ts';
export {
  findMenuShape,
  hasSelectionCursor,
  isMenuFooter,
  type MenuShape,
  matchApprovalMenu,
  matchSelectionMenu,
} from './selection-menus.ts';
export { stripAnsi } from './strip-ansi.ts';
export { createWaitStamp, type WaitStamp, type WaitStampResult } from './wait-stamp.ts';
