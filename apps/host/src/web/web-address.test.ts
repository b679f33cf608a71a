import { describe, expect, it } from 'vitest';
import { parseWebAddress } from './web-address.ts';

describe('orca start --web ADDR:PORT', () => {
  it('accepts loopback addresses, and others only with --web-bind-any', () => {
    expect(parseWebAddress('127.0.0.1:8080', false)).toEqual({ host: '127.0.0.1', port: 8080, loopback: true });
    expect(parseWebAddress('localhost:0', false)).toEqual({ host: '127.0.0.1', port: 0, loopback: true });
    expect(parseWebAddress('[::1]:9', false)).toEqual({ host: '::1', port: 9, loopback: true });
    expect(parseWebAddress('0.0.0.0:80', true)).toEqual({ host: '0.0.0.0', port: 80, loopback: false });
    expect(() => parseWebAddress('0.0.0.0:80', false)).toThrow(/not a loopback address; pass --web-bind-any/);
    for (const bad of ['8080', 'example.com:80', '127.0.0.1:70000', '999.1.1.1:80', '127.0.0.1:'])
      expect(() => parseWebAddress(bad, true)).toThrow(/--web expects ADDR:PORT/);
  });
});
