/**
 * `@spkg/validator/validate`: the checks of `spkg validate` and the packing of `spkg pack` as a library, for
 * hosts that must accept exactly what the command accepts (the platform API validates every upload with
 * `validatePackageBytes` and seeds its development catalog with `packFolder`). Node only.
 */
export type { PackedFolder } from './pack/pack-folder'
export { packFolder } from './pack/pack-folder'
export type { OmittedDiagnostics, ValidateOptions, ValidationReport } from './validate/validate-package'
export { DEFAULT_MAX_DIAGNOSTICS, validatePackageBytes } from './validate/validate-package'
