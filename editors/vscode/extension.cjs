// Starts `spkg-language-server --stdio` for .sty and .xty files (install @spkg/language-server).
const vscode = require('vscode')
const { LanguageClient } = require('vscode-languageclient/node')

let client

exports.activate = async function activate() {
  const command =
    vscode.workspace.getConfiguration('spkg').get('languageServer.path') || 'spkg-language-server'
  const server = { command, args: ['--stdio'] }
  client = new LanguageClient(
    'spkg',
    'spkg story',
    { run: server, debug: server },
    {
      documentSelector: [{ scheme: 'file', language: 'spkg-story' }],
      // storyLang: the version of a folder whose manifest declares no story_lang (or that has none)
      initializationOptions: { storyLang: vscode.workspace.getConfiguration('spkg').get('storyLang') },
      synchronize: {
        configurationSection: 'spkg',
        fileEvents: vscode.workspace.createFileSystemWatcher('**/{*.sty,*.xty,manifest.json,session.json}'),
      },
    },
  )
  await client.start()
}

exports.deactivate = function deactivate() {
  return client?.stop()
}
