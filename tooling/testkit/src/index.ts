export { endKeeper } from './end-keeper.ts';
export { freePort } from './free-port.ts';
export {
  probeSshd,
  SSH_TEST_USER,
  SSH_TEST_USER_HOME,
  startThrowawaySshd,
  type ThrowawaySshd,
} from './sshd.ts';
export { UNTIL_DEFAULTS, type UntilProbe, until } from './until.ts';
