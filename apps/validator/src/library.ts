/**
 * `@spkg/validator/validate`: the checks of `spkg validate` and the packing of `spkg pack` as a library, for
 * hosts that must accept exactly what the command accepts (the platform API validates every upload with
 * `validatePackageBytes` and seeds its development catalog with `packFolder`). Node only.
 */
export type { PackedFolder } from './pack/pack-folder'
export { packFolder } from './pack/pack-folder'
export type { ValidateOptions, ValidationReport } from './validate/validate-package'
export { validatePackageBytes } from './validate/validate-package'
