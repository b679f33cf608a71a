export { commandBasename, isShellName, SHELL_NAMES, TITLE_AGENT_TOKENS } from './agent-names.ts';
export { classifyTitle, type TitleClass, type TitleKind, titleAgent } from './classify-title.ts';
