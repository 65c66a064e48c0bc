import { isProgressivePackage, openPackageUrl } from '@spkg/reader'

// A package whose manifest says `loading: 'progressive'`, served by any HTTP server with ranges.
const url = process.argv[2] ?? 'https://example.org/stories/the-inn.spkg'
const result = await openPackageUrl(url)
if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'))
const pkg = result.package
if (isProgressivePackage(pkg)) {
  pkg.onPartLoad((e) => console.log(e.type, e.part))
  console.log([...pkg.loadedParts]) // the entry part (and the preload parts) only
  // The reader is 85% through the entry part (from @spkg/story's run.progress): the next part downloads.
  pkg.progress(pkg.entry, 0.85)
}
// A part not here yet is waited for, checked against manifest.integrity, then read.
console.log((await pkg.readText(pkg.parts[1]!)).split('\n')[0])
pkg.close()
