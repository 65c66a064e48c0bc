/** Refusal codes in plain words, for readers (the code itself is shown next to them). */

/** Plain-words explanation of a refusal code (the diagnostic's own message follows it). */
export function explainCode(code: string): string {
  const known: Record<string, string> = {
    'pkg/unsafe-path': 'The archive tries to write files outside itself (an unsafe path). It was not opened.',
    'pkg/integrity-mismatch':
      'A file does not match the checksum the package declares: it was changed or damaged.',
    'pkg/integrity-malformed': 'The package asks for verification but its checksums are not valid.',
    'pkg/too-large': 'The package is larger than a story package may be (or expands to more than the limit).',
    'pkg/too-many-entries': 'The archive holds more files than a story package may.',
    'pkg/corrupt-archive': 'This is not a readable ZIP archive.',
    'pkg/corrupt-entry': 'A file in the archive is damaged.',
    'pkg/no-entry': 'The archive has no story in it (no manifest.json and no .sty file at its root).',
    'pkg/wrapped-layout': 'Everything is inside one folder: zip the folder’s contents, not the folder.',
    'pkg/fetch-failed': 'The package could not be downloaded.',
    'pkg/remote-changed': 'The package changed on the server while it was being read.',
    'pkg/duplicate-entry': 'The archive holds the same file twice.',
    'pkg/header-mismatch': 'The archive’s records disagree with each other.',
    'pkg/unexpected-data': 'The archive holds data outside its files.',
    'pkg/unsupported-entry': 'The archive uses a feature story packages may not use.',
    'pkg/unsupported-requires': 'The story needs a host extension this player does not have.',
    'pkg/missing-extension': 'An extension module the story lists is missing.',
    'pkg/key-required': 'This package is encrypted and needs a key.',
    'pkg/decrypt-failed': 'This encrypted package could not be decrypted.',
    'repo/invalid-url': 'This is not a repository address the player can load.',
    'repo/fetch-failed':
      'The repository could not be downloaded: the host did not answer, or this page’s security policy does not let it connect to the repository host.',
    'repo/not-found': 'The repository (or that branch, tag or commit) does not exist, or is private.',
    'repo/rate-limited': 'The repository host refuses more downloads for now: try again later.',
    'repo/timeout': 'The repository took too long to answer.',
    'repo/redirect-refused': 'The repository host sent the download somewhere the player does not accept.',
    'repo/unexpected-layout': 'The repository’s download does not have the layout the player expects.',
    'player/no-package': 'The story has no published package yet.',
    'player/catalog-failed': 'The catalog could not be reached.',
  }
  return (
    known[code] ??
    (code.startsWith('manifest/') ? 'The package’s manifest is not valid.' : 'The package was refused.')
  )
}
