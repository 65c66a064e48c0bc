import { defineCodes, error, fatal, info, warning } from './types'

/** Codes of `manifest.json` and `session.json` checks. */
export const MANIFEST_CODES = defineCodes({
  'manifest/not-json': fatal('manifest.json is not valid JSON'),
  'manifest/not-object': fatal('manifest.json is not a JSON object'),
  'manifest/missing-id': fatal('the manifest has no `id`'),
  'manifest/invalid-type': error('a field has the wrong JSON type'),
  'manifest/invalid-value': error('a field has a value outside what it allows'),
  'manifest/invalid-id': warning('`id` is not a UUID'),
  'manifest/too-large': fatal(
    'manifest.json is over 1 MiB, or holds more than 10,000 keys or 50,000 values in all (docs/manifest-limits.md)',
  ),
  'manifest/too-deep': fatal('manifest.json nests deeper than 64 levels (the manifest object is level 1)'),
  'manifest/too-long': error(
    'a string or key is longer than its field allows (docs/manifest-limits.md); left out',
  ),
  'manifest/too-many': error(
    'a list or object has more members than its field allows, or the manifest more than 100 unknown fields; left out',
  ),
  'manifest/invalid-version': error(
    '`version` is not letters, digits and `.` `_` `+` `-` (starting and ending with a letter or digit, no `..`)',
  ),
  'manifest/unknown-version': warning(
    '`story_lang` or `manifest` names a version this library does not know',
  ),
  'manifest/unsafe-path': error(
    'a path field is absolute, has `..`, `.` or empty segments, a backslash or a scheme',
  ),
  'manifest/path-outside-dir': error(
    'a part lies outside `story/`, an asset outside `assets/`, an extension outside `extensions/`',
  ),
  'manifest/duplicate-entry': error('a list names the same file twice'),
  'manifest/progressive-only': warning('`preload`/`locked` are only meaningful with progressive loading'),
  'manifest/unknown-part': error('a `preload` or `locked` entry is not a `parts[].file`'),
  'manifest/type-mismatch': error('`instruction` on an instruction package, or `stories` on a story package'),
  'manifest/invalid-readers': error('a `readers` value is not a positive integer'),
  'manifest/invalid-age': error('`age.min` is greater than `age.max`'),
  'manifest/invalid-language': error('`language` is not a BCP-47 language tag'),
  'manifest/invalid-direction': error('`direction` is neither `ltr` nor `rtl`'),
  'manifest/invalid-hash': error(
    'an `integrity` value is not a SHA-256 (64 hex digits or `sha256-<base64>`)',
  ),
  'manifest/integrity-self': error(
    '`integrity` lists `manifest.json` or a `META-PKG/` file, which it cannot cover',
  ),
  'manifest/invalid-url': error('an `allowed_urls` url is not an absolute https URL'),
  'manifest/duplicate-alias': error('two `allowed_urls` share an alias'),
  'manifest/normalized': info(
    'a looser form was normalised into the canonical shape (bare-string part, string author...)',
  ),
  'manifest/unknown-field': info('a field the schema does not know; kept and ignored'),
  'session/not-json': fatal('session.json is not valid JSON'),
  'session/not-object': fatal('session.json is not a JSON object'),
  'session/invalid-name': warning(
    'a session.json key is not a valid story variable name and cannot be read by a story',
  ),
  'session/invalid-value': error('a session.json value is not a JSON scalar, array or object of those'),
})
