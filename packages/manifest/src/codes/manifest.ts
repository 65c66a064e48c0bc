import { defineCodes } from './types'

/** Codes of `manifest.json` and `session.json` checks. */
export const MANIFEST_CODES = defineCodes({
  'manifest/not-json': { severity: 'fatal', description: 'manifest.json is not valid JSON' },
  'manifest/not-object': { severity: 'fatal', description: 'manifest.json is not a JSON object' },
  'manifest/missing-id': { severity: 'fatal', description: 'the manifest has no `id`' },
  'manifest/invalid-type': { severity: 'error', description: 'a field has the wrong JSON type' },
  'manifest/invalid-value': { severity: 'error', description: 'a field has a value outside what it allows' },
  'manifest/invalid-id': { severity: 'warning', description: '`id` is not a UUID' },
  'manifest/too-large': {
    severity: 'fatal',
    description:
      'manifest.json is over 1 MiB, or holds more than 10,000 keys or 50,000 values in all (docs/manifest-limits.md)',
  },
  'manifest/too-deep': {
    severity: 'fatal',
    description: 'manifest.json nests deeper than 64 levels (the manifest object is level 1)',
  },
  'manifest/too-long': {
    severity: 'error',
    description: 'a string or key is longer than its field allows (docs/manifest-limits.md); left out',
  },
  'manifest/too-many': {
    severity: 'error',
    description:
      'a list or object has more members than its field allows, or the manifest more than 100 unknown fields; left out',
  },
  'manifest/invalid-version': {
    severity: 'error',
    description:
      '`version` is not letters, digits and `.` `_` `+` `-` (starting and ending with a letter or digit, no `..`)',
  },
  'manifest/unknown-version': {
    severity: 'warning',
    description: '`story_lang` or `manifest` names a version this library does not know',
  },
  'manifest/unsafe-path': {
    severity: 'error',
    description: 'a path field is absolute, has `..`, `.` or empty segments, a backslash or a scheme',
  },
  'manifest/path-outside-dir': {
    severity: 'error',
    description:
      'a part lies outside `story/`, an asset outside `assets/`, an extension outside `extensions/`',
  },
  'manifest/duplicate-entry': { severity: 'error', description: 'a list names the same file twice' },
  'manifest/progressive-only': {
    severity: 'warning',
    description: '`preload`/`locked` are only meaningful with progressive loading',
  },
  'manifest/unknown-part': {
    severity: 'error',
    description: 'a `preload` or `locked` entry is not a `parts[].file`',
  },
  'manifest/type-mismatch': {
    severity: 'error',
    description: '`instruction` on an instruction package, or `stories` on a story package',
  },
  'manifest/invalid-readers': {
    severity: 'error',
    description: 'a `readers` value is not a positive integer',
  },
  'manifest/invalid-age': { severity: 'error', description: '`age.min` is greater than `age.max`' },
  'manifest/invalid-language': { severity: 'error', description: '`language` is not a BCP-47 language tag' },
  'manifest/invalid-direction': { severity: 'error', description: '`direction` is neither `ltr` nor `rtl`' },
  'manifest/invalid-hash': {
    severity: 'error',
    description: 'an `integrity` value is not a SHA-256 (64 hex digits or `sha256-<base64>`)',
  },
  'manifest/integrity-self': {
    severity: 'error',
    description: '`integrity` lists `manifest.json` or a `META-PKG/` file, which it cannot cover',
  },
  'manifest/invalid-url': {
    severity: 'error',
    description: 'an `allowed_urls` url is not an absolute https URL',
  },
  'manifest/duplicate-alias': { severity: 'error', description: 'two `allowed_urls` share an alias' },
  'manifest/normalized': {
    severity: 'info',
    description: 'a looser form was normalised into the canonical shape (bare-string part, string author...)',
  },
  'manifest/unknown-field': {
    severity: 'info',
    description: 'a field the schema does not know; kept and ignored',
  },
  'session/not-json': { severity: 'fatal', description: 'session.json is not valid JSON' },
  'session/not-object': { severity: 'fatal', description: 'session.json is not a JSON object' },
  'session/invalid-name': {
    severity: 'warning',
    description: 'a session.json key is not a valid story variable name and cannot be read by a story',
  },
  'session/invalid-value': {
    severity: 'error',
    description: 'a session.json value is not a JSON scalar, array or object of those',
  },
})
