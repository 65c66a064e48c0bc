import { defineCodes, error, fatal, info, warning } from './types'

/** Codes of opening an archive: ZIP structure, paths, limits, layouts (owned by @spkg/reader). */
export const PKG_CODES = defineCodes({
  'pkg/not-zip': fatal('the input is not a ZIP archive (no end-of-central-directory record)'),
  'pkg/corrupt-archive': fatal(
    'the ZIP structure is truncated or inconsistent (end record, central directory, entry count)',
  ),
  'pkg/corrupt-entry': fatal(
    'an entry does not inflate, or its size or CRC-32 differs from what the central directory declares',
  ),
  'pkg/header-mismatch': fatal(
    'a local header disagrees with its central-directory record (name, method, flags, CRC, sizes or data descriptor)',
  ),
  'pkg/overlapping-entries': fatal(
    'two entries (or an entry and the central directory) share bytes: several records, same data',
  ),
  'pkg/unexpected-data': fatal(
    'bytes outside the ZIP structure: data before the first entry, between entries, or non-zero bytes after the end record',
  ),
  'pkg/trailing-padding': warning(
    'zero bytes after the end record (block padding some tools write); ignored',
  ),
  'pkg/split-archive': fatal('a split or multi-disk archive; only single-file archives are read'),
  'pkg/unsupported-entry': fatal(
    'an encrypted entry, a compression method other than stored or deflate, or a special file',
  ),
  'pkg/too-many-entries': fatal(
    'more central-directory records than the entry limit (500, directories included)',
  ),
  'pkg/too-large': fatal(
    'the entries inflate to more than the uncompressed-size limit (50 MiB); inflation stopped there',
  ),
  'pkg/unsafe-path': fatal(
    'an entry name escapes the archive root or is not canonical, or the entry is a symlink',
  ),
  'pkg/invalid-name': fatal(
    'an entry name flagged UTF-8 is not valid UTF-8, or its Info-ZIP Unicode Path field disagrees with it',
  ),
  'pkg/cp437-name': warning('an entry name without the UTF-8 flag is not valid UTF-8 and was read as CP437'),
  'pkg/duplicate-entry': fatal(
    'two entries share a name, also after Unicode NFC normalisation and case folding, or a file name is also a folder',
  ),
  'pkg/directory-with-data': error('a directory entry carries data; the data is ignored'),
  'pkg/ignored-entry': info(
    "a system or hidden file (`__MACOSX/`, `._*`, `.DS_Store`, any name starting with `.` but a repository's own: `.git`, `.github`, `.gitignore`... are left out silently) was ignored; it still counts toward the limits",
  ),
  'pkg/wrapped-layout': fatal(
    'every entry sits under one top-level folder: zip the folder contents, not the folder',
  ),
  'pkg/no-entry': fatal(
    'no usable entry story: no root manifest.json or root `.sty`, no parts, or the entry part is missing, not a `.sty` or not UTF-8 text',
  ),
  'pkg/mixed-layout': warning(
    'a root `.sty` next to manifest.json (flat and packaged layouts mixed); the manifest decides',
  ),
  'pkg/misplaced-file': warning(
    'a flat archive has files in folders; a flat archive keeps its `.sty` and media at the root',
  ),
  'pkg/missing-part': error('a part listed in `manifest.parts` is missing from the archive'),
  'pkg/missing-file': error(
    'a file the manifest references (cover, asset, names map) is missing from the archive',
  ),
  'pkg/invalid-names-map': error(
    'the names map (`build.names_map`) is not JSON or not a names map; the story plays, saved states keep the minified names',
  ),
  'pkg/closed': error(
    'an entry was read after the package was closed (`close()`); nothing can be read from it any more',
  ),
  'pkg/invalid-text': error('a story, extension or JSON file is not valid UTF-8'),
  'pkg/text-bom': warning('a text file starts with a UTF-8 byte-order mark; it is ignored'),
  'pkg/missing-extension': fatal('a `manifest.extensions` entry is missing from the archive'),
  'pkg/unsupported-requires': fatal('a required host-extension namespace has no registered extension'),
  'pkg/fetch-failed': fatal(
    'the package could not be read: the URL fetch failed or returned a non-success status, or a Blob or file read failed',
  ),
  'pkg/remote-changed': fatal(
    'the package changed on the server while it was being read (a `200` to an `If-Range` request, or a new `ETag`): nothing of the new version is used',
  ),
  'pkg/cache-failed': fatal(
    'the offline package cache could not be read or written, or holds no complete copy of the version asked for',
  ),
  'pkg/generated-id': warning(
    'the folder has no manifest `id`; `spkg pack` generated a random UUID: add it to manifest.json so every build keeps it',
  ),
  'pkg/pack-rewritten-field': info(
    '`spkg pack` replaced a field it writes itself (`integrity`, `signed`, `signature`) or completed `story_lang`/`manifest`/`parts`/`assets`',
  ),
  'pkg/unreferenced-file': info(
    'a file in the archive is referenced by nothing (not a part, asset, cover, extension, session or META-PKG file)',
  ),
  'pkg/secret-key': fatal(
    'a file is a signify secret key (what `spkg keygen` writes as `.sec`); `spkg pack` and `spkg validate` refuse it: secret keys must never be published',
  ),
  'pkg/no-cover': warning(
    'a packaged story has no `cover` image, so catalogs and the envelope show a placeholder',
  ),
  'pkg/deflated-media': warning(
    'already-compressed media (JPEG, PNG, WebP, OGG, MP3, MP4, WOFF2...) stored with deflate; store them uncompressed',
  ),
  'pkg/non-canonical-manifest': info(
    'manifest.json is not byte-for-byte in canonical form (what `spkg manifest normalize` and `spkg pack` write)',
  ),
})
