/**
 * How an author or integrator fixes each diagnostic code: the "How to fix" column of
 * docs/diagnostic-codes.md (rendered by `codes-doc.ts`, never bundled with the runtime). Add a line
 * here with every new code: `apps/validator/src/diagnostic-docs.test.ts` fails on a code without one.
 */
import type { DiagnosticCode } from './index'

export const FIXES: Partial<Record<DiagnosticCode, string>> = {
  'manifest/not-json':
    'Fix the JSON syntax (a missing comma or quote, a trailing comma); `spkg manifest check` points at it.',
  'manifest/not-object': 'Make manifest.json one JSON object `{ "id": ..., ... }`, not an array or a value.',
  'manifest/missing-id':
    'Add `"id"`: a UUID made once for the story and kept forever (`spkg init` writes one).',
  'manifest/invalid-type':
    'Give the named field the type the SPEC table shows (e.g. `tags` a list of strings).',
  'manifest/invalid-value': 'Use one of the values the field allows (see the message and the SPEC table).',
  'manifest/invalid-id':
    'Use a UUID as `id` (`spkg init` or `uuidgen`); keep the old one only if the story is already published.',
  'manifest/unknown-version': 'Set `story_lang` and `manifest` to `1.0`, or update the tools.',
  'manifest/too-large':
    'Keep manifest.json to metadata: move long texts into story files, and remove generated data from unknown fields.',
  'manifest/too-deep':
    'Flatten the nested value the message names; no manifest field needs more than a few levels.',
  'manifest/too-long':
    'Shorten the value to the length docs/manifest-limits.md gives for its field (a synopsis belongs in `description`, a long text in the story).',
  'manifest/too-many':
    'List fewer members than docs/manifest-limits.md allows for the field (a package holds at most 500 files).',
  'manifest/invalid-version':
    'Write the version as authors usually do: `1.2.3`, `1.0-beta.2`, `2024-05-01`, `v3` (no spaces, slashes or `..`).',
  'manifest/unsafe-path':
    'Write the path archive-relative with `/` (`assets/cover.webp`), no `..`, no leading `/`, no scheme.',
  'manifest/path-outside-dir':
    'Move the file under `story/`, `assets/` or `extensions/` as its field requires, and update the path.',
  'manifest/duplicate-entry': 'Remove the second mention of the file from the list.',
  'manifest/progressive-only': 'Add `"loading": "progressive"`, or remove `preload`/`locked`.',
  'manifest/unknown-part': 'Name a `parts[].file` exactly, or remove the entry.',
  'manifest/type-mismatch': 'Use `instruction` only on a story and `stories` only on an instruction package.',
  'manifest/invalid-readers': 'List reader counts as positive whole numbers (`"readers": [1, 2]`).',
  'manifest/invalid-age': 'Make `age.min` at most `age.max`.',
  'manifest/invalid-language': 'Use a BCP-47 tag such as `en`, `fr-CA` or `zh-Hant`.',
  'manifest/invalid-direction': 'Write `"ltr"` or `"rtl"`.',
  'manifest/invalid-hash':
    'Let `spkg pack` write `integrity` (it recomputes it); by hand: 64 hex digits or `sha256-<base64>`.',
  'manifest/integrity-self':
    'Remove `manifest.json` and `META-PKG/` files from `integrity` (`spkg pack` does).',
  'manifest/invalid-url': 'Use an absolute `https://` URL.',
  'manifest/duplicate-alias': 'Give each `allowed_urls` entry its own alias.',
  'manifest/normalized': 'Nothing needed; `spkg manifest normalize` rewrites the file in canonical form.',
  'manifest/unknown-field': 'Check the spelling against the SPEC table; an intended custom field can stay.',
  'session/not-json': 'Fix the JSON syntax of session.json.',
  'session/not-object': 'Make session.json one JSON object of variable names to values.',
  'session/invalid-name':
    'Rename the key to a story variable name (a letter or `_`, then letters, digits, `_`; not a keyword).',
  'session/invalid-value': 'Use numbers, strings, booleans, lists or objects of those (no `null`).',
  'pkg/not-zip':
    'Give a `.spkg` made by `spkg pack` (or any ZIP tool); a `.spkg.enc` needs `--decryption-key`.',
  'pkg/corrupt-archive': 'The file is damaged or truncated: download or build it again (`spkg pack`).',
  'pkg/corrupt-entry': 'The file is damaged: build it again with `spkg pack`.',
  'pkg/header-mismatch': 'The ZIP was altered or made by a broken tool: rebuild it with `spkg pack`.',
  'pkg/overlapping-entries': 'The ZIP is crafted or broken: rebuild it with `spkg pack`.',
  'pkg/unexpected-data':
    'Rebuild with `spkg pack`; do not append data to or prepend a stub before the archive.',
  'pkg/trailing-padding': 'Nothing needed; `spkg pack` writes no padding.',
  'pkg/split-archive': 'Make one single-file archive (`spkg pack`).',
  'pkg/unsupported-entry':
    'Rebuild with `spkg pack` (deflate or stored, no ZIP encryption; use `spkg encrypt` for encryption).',
  'pkg/too-many-entries': 'Keep the package under 500 entries: merge parts or media, remove unused files.',
  'pkg/too-large':
    'Keep the package under 50 MiB uncompressed: compress media (WebP, Opus), split the story.',
  'pkg/unsafe-path':
    'Rename the file to a plain relative path (no `..`, no leading `/`), and copy linked files in instead of symbolic links.',
  'pkg/invalid-name': 'Rename the file with valid UTF-8, or rebuild with `spkg pack`.',
  'pkg/cp437-name': 'Rebuild with `spkg pack`, which marks names as UTF-8.',
  'pkg/duplicate-entry':
    'Rename one of the two files: names must differ also ignoring case and Unicode form.',
  'pkg/directory-with-data': 'Rebuild with `spkg pack`.',
  'pkg/ignored-entry': 'Nothing needed; delete the file from the folder to silence it.',
  'pkg/wrapped-layout': 'Zip the folder contents, not the folder (or use `spkg pack <folder>`).',
  'pkg/no-entry':
    'Add manifest.json with `parts`, or a `.sty` file at the root for a flat story; check the first part exists and is UTF-8.',
  'pkg/mixed-layout':
    'Move the root `.sty` under `story/` and list it in `parts`, or remove manifest.json for a flat story.',
  'pkg/misplaced-file':
    'In a flat story keep every file at the root, or add manifest.json for a packaged story.',
  'pkg/missing-part': 'Add the part file, or remove it from `parts`.',
  'pkg/invalid-names-map':
    'Rebuild with `spkg pack --minify`, which writes the names map; do not edit it by hand.',
  'pkg/missing-file': 'Add the file, or fix or remove its path in the manifest.',
  'pkg/closed': 'In code: read entries before calling `close()`.',
  'pkg/invalid-text': 'Save the file as UTF-8.',
  'pkg/text-bom': 'Save the file as UTF-8 without a byte-order mark.',
  'pkg/missing-extension': 'Add the module file, or remove it from `extensions`.',
  'pkg/unsupported-requires':
    'Play it in a host that provides the namespace (`--host-namespace <ns>` with `spkg`), or remove it from `requires`.',
  'pkg/fetch-failed': 'Check the URL, the network and the server; the message gives the status.',
  'pkg/remote-changed': 'Load the package again: a new version was published meanwhile.',
  'pkg/cache-failed': 'Check storage quota and permissions, then download the package again.',
  'pkg/generated-id':
    'Copy the generated `id` into manifest.json (or run `spkg init`) so every build keeps it.',
  'pkg/pack-rewritten-field': 'Nothing needed; remove the field from the source to silence it.',
  'pkg/unreferenced-file': 'List the file in `assets` (or use it), or delete it.',
  'pkg/secret-key':
    'Move the key out of the story folder, and make a new key if it was ever shared or committed.',
  'pkg/no-cover': 'Add a cover image (`assets/cover.webp`) and set `cover` to it.',
  'pkg/deflated-media': 'Rebuild with `spkg pack`, which stores compressed media as they are.',
  'pkg/non-canonical-manifest': 'Run `spkg manifest normalize manifest.json -o manifest.json`.',
  'pkg/integrity-mismatch':
    'A file changed after packing: rebuild with `spkg pack` (and sign again); if you did not change it, do not trust the package.',
  'pkg/integrity-missing-file': 'Rebuild with `spkg pack`, which recomputes `integrity`.',
  'pkg/integrity-malformed': 'Remove `integrity` from the source; `spkg pack` writes it.',
  'pkg/integrity-unlisted-file': 'Rebuild with `spkg pack`, which lists every file.',
  'pkg/integrity-excluded-entry': 'Nothing needed; `spkg pack` leaves these out.',
  'pkg/checksum-malformed': 'Sign again with `spkg sign`, which writes the checksum file.',
  'pkg/checksum-missing-file': 'A file was removed after signing: rebuild and sign again.',
  'pkg/checksum-unlisted-file': 'A file was added after signing: rebuild and sign again.',
  'pkg/signature-missing': 'Sign the package with `spkg sign`, or remove `signed` from the source.',
  'pkg/signature-malformed': 'Sign again with `spkg sign`.',
  'pkg/signature-mismatch':
    'The package changed after signing, or the wrong key is trusted: sign again, check `--trusted-key`.',
  'pkg/public-key-missing':
    "Sign again with `spkg sign` (it embeds `author.pub`), or pass the signer's key with `--trusted-key`.",
  'pkg/signature-unsupported':
    "Readers: update the browser (Chrome or Edge 137, Firefox 129, Safari 17). Hosts that support older browsers opt in to the fallback: `import { nobleEd25519 } from '@spkg/reader/ed25519-noble'`, then `openPackage(bytes, { ed25519Fallback: nobleEd25519 })` (`verifyPackageSignature` of `@spkg/integrity` takes the same option).",
  'pkg/key-malformed': 'Use a key from `spkg keygen` (signify Ed25519, no passphrase).',
  'pkg/untrusted-key': "Pass the author's public key with `--trusted-key`, or register it with the platform.",
  'pkg/signer-mismatch': 'Sign again with `spkg sign`, which writes the right fingerprint.',
  'pkg/key-required': 'Pass the key with `--decryption-key <key-file>`.',
  'pkg/decrypt-failed':
    'Use the key the package was encrypted with; if it is right, the file is damaged: get it again.',
  'story/encoding': 'Save the file as UTF-8 and remove NUL characters.',
  'story/reserved-id': 'Choose another id: `h1`, `h2`... name headings without an id.',
  'story/duplicate-id': 'Rename one of the two ids; ids are unique per file.',
  'story/bad-path': 'Write media paths archive-relative (`assets/x.webp`) with a known extension.',
  'story/missing-media': 'Add the media file to the package (and to `assets`), or fix the path.',
  'story/unknown-id': 'Fix the id, or add `[#id]` to the heading, anchor or group you mean.',
  'story/unreachable': 'Remove the lines, or add a jump, gate, link or option that leads there.',
  'story/tag-text': 'Put tags last on the line, or write `\\#` for a literal `#`.',
  'story/dedented-body':
    'Indent the line under the option it belongs to; to start a new menu on purpose, put a blank line and an anchor (`[#id]`) above its first option.',
  'story/fall-through':
    'End the section with a jump or `-> END`; if falling into the next section is meant, write its jump (`-> #cellar`) right above its heading.',
  'story/ink-syntax':
    'Write it in the story language, as the message shows: `{set x = 1}`, `# Knot [#knot]`, a line after the group, `-> #x` on its own line; for alternatives the keyword form: `{seq a|b}` for `{a|b}`, `{cycle a|b}` for `{&a|b}`, `{shuffle a|b}` for `{~a|b}`, `{once a|b}` for `{!a|b}`.',
  'story/id-before-jump': 'Write the id last, after the label and the jump: `* Go -> #yard [#n]`.',
  'story/bad-target': 'Write the target as a part file ending `.sty`, relative, without `..`.',
  'story/unknown-part':
    'Create the part and list it in `parts`, or fix the file name; a flat story has only one part.',
  'story/not-a-target':
    'Jump to a heading, anchor or group id instead (give the line above the options an anchor).',
  'story/link-in-label': 'Move the link into a paragraph, or use an option with a gate in its body.',
  'story/empty-alternative':
    'Give it items separated by `|` (`{seq first|second}`), or branches separated by `{or}` lines in the block form; or remove it.',
  'story/lang-version':
    'Set `story_lang` to `1.0` or `1.1`, or update the tools (or the reader app) to one that reads the newer version.',
  'story/unclosed-brace': 'Close the command with `}` on the same line.',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the fix names the `${` opener
  'story/unclosed-interpolation': 'Close `${` with `}` on the same line.',
  'story/bad-expression':
    'Fix the expression (see docs/language.md, Expressions); the message names what was expected.',
  'story/unknown-command':
    'Check the keyword (`set`, `if`, `use`...) and where it is allowed; write `\\{` for a literal brace.',
  'story/missing-end': 'Add `{end}` where the `{if}` or `{passage}` ends.',
  'story/unexpected-end': 'Remove the `{end}`, or add the `{if}` it closes.',
  'story/else-without-if': 'Add the `{if}`, or remove the `{elif}`/`{else}`.',
  'story/indentation': 'Indent every line of an option body at least as deep as its first line.',
  'story/local-placement': 'Put `{local}` under a heading, or use `{set}` for a story variable.',
  'story/bad-default': 'Write `{set n = value}` in the top lines; move `+=`/`-=` below the first text.',
  'story/repeated-default':
    'Fold the two into one default (`{set n = 6}`), or move the second `{set}` below the first text line, where it runs as an assignment.',
  'story/seed-placement': 'Move `{seed N}` to the top lines of the entry part.',
  'story/seed-range': 'Use a seed from 0 to 4294967295.',
  'story/use-placement': 'Move `{use}` to the top lines of the part (before any text).',
  'story/unknown-module':
    'Add the module (`extensions/name.xty`, or `name.xty` in a flat story), or fix the name.',
  'story/module-cycle': 'Break the cycle: move what both modules need into a third one.',
  'story/module-content': 'Keep only declarations in a module, at column 1; text goes in a `{passage}`.',
  'story/const-assign': 'Use a `{set}` variable for a value that changes, or remove the assignment.',
  'story/recursion':
    'Rewrite the function without calling itself; at 1.1 a block function `{fn f(n)}` … `{end}` may recurse (it can stop with `{if}`).',
  'story/recursion-depth':
    'Make the recursion stop sooner: check the `{if}` that ends it, or loop with fewer nested calls.',
  'story/return-placement':
    'Move the line into a block function `{fn name(…)}` … `{end}` of a module; in a part or passage, jump or end instead.',
  'story/ref-argument':
    'Pass a variable name for the `ref` parameter (`f(gold)`, not `f(gold + 1)` or `f(3)`).',
  'story/ambiguous-item': 'Name the set with the item: write `Tools.rope` instead of `rope`.',
  'story/duplicate-declaration': 'Rename one of the two declarations; do not reuse a built-in name.',
  'story/extern-namespace': 'Add the namespace to `requires` in manifest.json.',
  'story/unknown-function': 'Check the name, and `{use}` the module that declares it in this part.',
  'story/session-name': 'Rename the session key to a valid variable name, or give it a non-null value.',
  'story/undeclared':
    'Give the variable a default with `{set name = value}` at the top of a part, in a module or in session.json.',
  'story/uninitialised': 'Move the `{local}` line above the first read.',
  'story/shadowing': 'Rename the local so it does not hide the story variable.',
  'story/unused-variable':
    'Fix the name if it is misspelt (the message suggests the nearest name read); a variable only a host reads: give it a key in session.json, or turn the rule off.',
  'story/implicit-ids':
    'Give the group an anchor (`[#talk]` on the line above) and each option an id (`* Ask [#ask]`).',
  'story/tunnel-return':
    'Reach `->->` only through a tunnel call (`-> #id ->`); jump with `-> #id` or end with `-> END` instead.',
  'story/tunnel-end':
    'End every way out of the tunnelled section with `->->` (or `-> END`), so it returns to its caller.',
  'story/exhausted-group': 'Add a fallback option (`* -> #next`), a sticky `+` option, or loosen the guards.',
  'story/type-error': 'Check the values: `num()` and `str()` convert; only lists can be indexed.',
  'story/index-range': 'Check the index against `len(list)`; lists start at 0.',
  'story/no-key': 'Check the key, or test with `contains` first.',
  'story/undefined': 'Set the variable before reading it, or give it a default at the top of a part.',
  'story/division-by-zero': 'Test the divisor before dividing (`{if n != 0}`).',
  'story/number-overflow': 'Keep numbers finite (no huge products or powers).',
  'story/arity':
    'Call the function with the number of arguments it takes (docs/language.md lists the built-ins).',
  'story/roll-range':
    'Keep `random(a, b)` with a ≤ b and b − a below 10^6, and `roll(n, m)` with n 1..100, m ≥ 1.',
  'story/empty-pick': 'Check `len(list) > 0` before `pick(list)`.',
  'story/host-error': 'Provide the host function in the reader app, or play with the host that does.',
  'story/load-failed': 'Check that the part or module is in the package and readable.',
  'story/resume-diverged':
    'Nothing for readers; authors: give options and groups explicit ids so edits keep saved places.',
  'story/invalid-choice': 'Answer with an option id, menu number or link target the pause offers.',
  'story/endless-loop':
    'Break the loop: a cycle of jumps needs a choice (an option group) or `-> END` on its way, or an `{if}` that leaves it.',
  'state/not-json': 'The saved state is damaged: start again or restore a backup.',
  'state/not-object': 'The saved state is damaged: start again or restore a backup.',
  'state/unknown-format': 'Save it again with this library (`@spkg/state`), or update the reader.',
  'state/invalid': 'The saved state is damaged or hand-edited: start again or restore a backup.',
  'state/other-story': 'Resume it with the story it was saved from.',
  'state/other-version': 'Nothing needed; resume replays the choices as far as they still match.',
  'state/inconsistent': 'The saved state was edited or damaged; resume keeps what it can.',
  'state/storage-failed': 'Check storage quota and permissions in the browser or the server.',
  'state/storage-unavailable': 'Nothing needed; allow the storage the story asks for to use it.',
  'state/conflict': 'Load the state again and redo the save (another device saved first).',
  'repo/invalid-url': 'Give `https://github.com/<owner>/<repo>` or `.../tree/<ref>`.',
  'repo/not-found':
    'Check the owner, name and ref; a private repository needs a token (see the validator README).',
  'repo/rate-limited': 'Wait until the time the message gives, or set a token.',
  'repo/fetch-failed': 'Check the network and the host status, then try again.',
  'repo/timeout': 'Try again, or raise the timeout (SPKG_REPO_* variables).',
  'repo/redirect-refused': "Use the repository's canonical URL; downloads must stay on allowed HTTPS hosts.",
  'repo/address-refused': 'Check the DNS of the host; private addresses are never fetched.',
  'repo/unexpected-layout': 'Download the repository archive from the host itself, unchanged.',
  'repo/ignored-file': 'Nothing needed; such files are never packed.',
}
