import { importRepository } from '@spkg/repo-import/node'

// The URL a user gives; the hosts are the embedder's configuration (GitHub's by default).
const [url = 'https://github.com/owner/story/tree/v1.2', apiHost, downloadHost] = process.argv.slice(2)
const result = await importRepository(url, {
  ...(apiHost ? { repoApiHost: apiHost } : {}),
  ...(downloadHost ? { downloadHosts: [downloadHost] } : {}),
  token: process.env.GITHUB_TOKEN, // optional: private repositories, higher rate limits
  allowPrivateAddresses: process.env.SPKG_REPO_ALLOW_PRIVATE_ADDRESSES === '1', // tests only
})
if (result.ok) {
  // Pin what was loaded: the commit the zipball was made from.
  console.log(result.source.ref, result.source.commit, result.package.manifest?.title)
  console.log(await result.package.readText(result.package.entry!))
  result.package.close()
} else {
  for (const d of result.diagnostics) console.log(`${d.code}: ${d.message}`)
}
