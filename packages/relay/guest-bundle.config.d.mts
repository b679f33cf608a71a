/** Build dist/guest-relay.cjs; resolves with its path. */
export declare function buildGuestBundle(): Promise<string>;
