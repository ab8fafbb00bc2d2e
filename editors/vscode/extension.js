// The skillc-lint extension: starts `skillc-lint server` (the language server of the
// skillc-lint Python package, `pip install 'skillc-lint[lsp]'`) over stdio for Markdown
// files, and nothing else. Everything the editor shows comes from that server.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function settings() {
  const config = vscode.workspace.getConfiguration("skillcLint");
  return {
    command: config.get("command", "skillc-lint"),
    profiles: config.get("profiles", []),
  };
}

async function start(context) {
  const { command, profiles } = settings();
  const serverOptions = {
    command,
    args: ["server"],
    transport: TransportKind.stdio,
  };
  const clientOptions = {
    // the server answers for SKILL.md and the Markdown files of a skill; other Markdown
    // files get no findings
    documentSelector: [{ scheme: "file", language: "markdown" }],
    initializationOptions: { profiles },
  };
  client = new LanguageClient("skillcLint", "skillc-lint", serverOptions, clientOptions);
  await client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand("skillcLint.restart", async () => {
      if (client) {
        await client.stop();
        client = undefined;
      }
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("skillcLint")) {
        await vscode.commands.executeCommand("skillcLint.restart");
      }
    })
  );
  try {
    await start(context);
  } catch (error) {
    vscode.window.showErrorMessage(
      `skillc-lint: cannot start '${settings().command} server' (${error.message}). ` +
        "Install it with: pip install 'skillc-lint[lsp]', or set skillcLint.command."
    );
  }
}

async function deactivate() {
  if (client) {
    await client.stop();
  }
}

module.exports = { activate, deactivate };
