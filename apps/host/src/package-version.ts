import { packageVersion } from '@orca/shared/package-version';

/** This package's version: inlined from package.json at build, read from it in source. */
export const PACKAGE_VERSION: string = packageVersion('@orca/host', new URL('../package.json', import.meta.url));
