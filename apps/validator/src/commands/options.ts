/**
 * Options shared by several commands. Only their `--help` shape lives here: reading the values
 * belongs to the command's work (`validate/decryption-key.ts`, `validate/trusted-keys.ts`), which
 * `spkg --help` never loads.
 */
import type { OptionSpec } from '../cli-types'

/** `--decryption-key`, shared by every command that opens a package. */
export const DECRYPTION_KEY_OPTION: OptionSpec = {
  type: 'string',
  valueName: '<key-file>',
  description: 'key of an encrypted package (.spkg.enc): a file holding 64 hex digits or base64 of 32 bytes',
}

/** `--host-namespace`, shared by every command that opens a package (validate, pack, sign, verify, play). */
export const HOST_NAMESPACE_OPTION: OptionSpec = {
  type: 'string',
  multiple: true,
  valueName: '<ns>',
  description: 'register a host-extension namespace, as an embedder would; repeatable',
}

/** `--format text|json`, shared by every command whose output has a JSON form. */
export const FORMAT_OPTION: OptionSpec = {
  type: 'string',
  short: 'f',
  valueName: 'text|json',
  description: 'output format',
  default: 'text',
}

/** `--format text|json|github`, for the commands that report findings (validate, manifest check). */
export const FINDINGS_FORMAT_OPTION: OptionSpec = { ...FORMAT_OPTION, valueName: 'text|json|github' }

/** `--lang <version>`, for the commands that read a story folder or a `.sty` file (play, validate, map). */
export const LANG_OPTION: OptionSpec = {
  type: 'string',
  valueName: '<version>',
  description:
    "story-language version (1.0 or 1.1) of a folder or .sty without a manifest's story_lang (a manifest's wins)",
}
