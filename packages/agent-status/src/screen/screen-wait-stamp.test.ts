import { describe, expect, it } from 'vitest';
import { createScreenWaitStamp } from './screen-wait-stamp.ts';

const TRUST = ['Do you trust the files in this folder?', '● 1. Trust folder (proj)', "  2. Don't trust"];
const MENU = [' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', ' Esc to cancel · Tab to amend'];
const IDLE = ['────', '❯', '────', '  ? for shortcuts'];

describe('createScreenWaitStamp', () => {
  it('stamps when a prompt appears, keeps the stamp while it stays, forgets it when it goes', () => {
    const s = createScreenWaitStamp();
    expect(s.observe(IDLE, 1000)).toBeNull();
    expect(s.observe(MENU, 2000)).toBe(2000);
    expect(s.observe(MENU, 2500)).toBe(2000);
    expect(s.observe(IDLE, 3000)).toBeNull();
    expect(s.observe(MENU, 4000)).toBe(4000);
  });

  it('a cursor moving between the choices is the same prompt', () => {
    const s = createScreenWaitStamp();
    s.observe(MENU, 1000);
    expect(
      s.observe([' Do you want to proceed?', '   1. Yes', ' ❯ 2. No', ' Esc to cancel · Tab to amend'], 1200),
    ).toBe(1000);
  });

  it('a different prompt taking the place of another restamps', () => {
    const s = createScreenWaitStamp();
    s.observe(TRUST, 1000);
    expect(s.observe(MENU, 1500)).toBe(1500);
  });

  it('reset forgets everything', () => {
    const s = createScreenWaitStamp();
    s.observe(MENU, 1000);
    s.reset();
    expect(s.waitBlockedAt).toBeNull();
    expect(s.observe(MENU, 2000)).toBe(2000);
  });
});
