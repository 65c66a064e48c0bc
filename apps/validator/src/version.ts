import pkg from '../package.json' with { type: 'json' }

/** The version of `@spkg/validator`. */
export const VERSION: string = pkg.version
