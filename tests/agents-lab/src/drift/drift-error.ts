/** Why a drift run could not judge a release (not: the release broke a rule; that is a result). */
export type DriftErrorCode = 'usage' | 'npm_failed' | 'registry_bad_answer' | 'install_failed';

export class DriftError extends Error {
  readonly code: DriftErrorCode;

  constructor(code: DriftErrorCode, message: string) {
    super(message);
    this.name = 'DriftError';
    this.code = code;
  }
}
