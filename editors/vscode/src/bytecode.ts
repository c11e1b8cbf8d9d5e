// Tile IR bytecode (`.tileirbc`) in the editor: a read-only text view of a bytecode file, and
// "Save as Bytecode…" for a cuda_tile document. The server does the decoding and the writing
// (tile_lsp/features/bytecode_view.py); this file only wires them into VS Code:
//
// - `tileirbc:` virtual documents (a TextDocumentContentProvider) hold the decoded text of the
//   file with the same path. They are read-only, never dirty, language cuda-tile, and the client
//   serves them like any cuda_tile document (diagnostics, hover, symbols, code lens, pipeline).
// - A custom editor for `*.tileirbc` (explorer click, Quick Open, `code k.tileirbc`): it opens
//   the `tileirbc:` document in its place and closes its own tab; when the server cannot decode
//   the file it stays, showing the error (with the byte offset) in a small webview.
// - "tile-lsp: Save as Bytecode…" is the server's own command `tileLsp.saveAsBytecode`, which
//   vscode-languageclient registers in VS Code (one id cannot be registered twice): the client's
//   executeCommand middleware turns a call without the server's arguments (the palette, a menu)
//   into the dialog; a call with them ([{uri, path, version?}], from a script) goes to the server.
//   While no server offers the command, the extension registers a stand-in that says so.
import * as path from 'path';
import * as vscode from 'vscode';
import type { ExecuteCommandSignature, LanguageClient } from 'vscode-languageclient/node';

export const BYTECODE_SCHEME = 'tileirbc';
export const BYTECODE_VIEW_TYPE = 'tileLsp.bytecode';
/** Custom request: {uri} (a file: URI) -> {path, text, version, producer, bytes} or {path, error}. */
export const BYTECODE_TEXT_REQUEST = 'tileLsp/bytecodeText';
/** Server command: [{uri, path, version?}] -> {path, bytes, version, diagnostics} or {error}. */
export const SAVE_AS_BYTECODE_COMMAND = 'tileLsp.saveAsBytecode';
/** Bytecode versions the server writes (tile_lsp/compiler/bytecode/format.py `VERSIONS`). */
export const BYTECODE_VERSIONS = ['13.1', '13.2', '13.3', '13.4', '13.5'];

interface BytecodeText {
  path?: string;
  text?: string;
  version?: string;
  producer?: string | null;
  bytes?: number;
  error?: string;
}

interface SaveResult {
  path?: string;
  bytes?: number;
  version?: string;
  diagnostics?: string[];
  error?: string;
}

/** What the bytecode features need of the extension: a running client, and the language to show. */
export interface BytecodeHost {
  readyClient(): Promise<LanguageClient | undefined>;
  readonly languageId: string;
}

/** The `tileirbc:` URI of the text view of a bytecode file (same path). */
export function bytecodeViewUri(file: vscode.Uri): vscode.Uri {
  return file.with({ scheme: BYTECODE_SCHEME });
}

/** The default bytecode path for a document: same folder, same stem (`k.mlir`, `k.tile.mlir`,
 * `k.cuda_tile.mlir` -> `k.tileirbc`). */
export function defaultBytecodePath(fsPath: string): string {
  const dir = path.dirname(fsPath);
  let stem = path.basename(fsPath);
  for (const ext of ['.cuda_tile.mlir', '.tile.mlir', '.tileirbc', '.mlir']) {
    if (stem.endsWith(ext) && stem.length > ext.length) {
      stem = stem.slice(0, -ext.length);
      break;
    }
  }
  if (stem === path.basename(fsPath)) {
    stem = path.parse(fsPath).name || stem;
  }
  return path.join(dir, `${stem}.tileirbc`);
}

export class BytecodeSupport implements vscode.TextDocumentContentProvider, vscode.CustomReadonlyEditorProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** Answers fetched by the custom editor, handed to the content provider once (no second read). */
  private readonly fetched = new Map<string, BytecodeText>();

  constructor(private readonly host: BytecodeHost) {}

  register(): vscode.Disposable[] {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.tileirbc');
    const reread = (file: vscode.Uri) => {
      const view = bytecodeViewUri(file).toString();
      if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === view)) {
        this.changed.fire(bytecodeViewUri(file));
      }
    };
    vscode.workspace.textDocuments.forEach((doc) => this.setLanguage(doc));
    return [
      this.changed,
      watcher,
      watcher.onDidChange(reread),
      watcher.onDidCreate(reread),
      watcher.onDidDelete(reread),
      vscode.workspace.registerTextDocumentContentProvider(BYTECODE_SCHEME, this),
      vscode.window.registerCustomEditorProvider(BYTECODE_VIEW_TYPE, this, {
        supportsMultipleEditorsPerDocument: true,
      }),
      // A `tileirbc:` view opens as plain text (no language has that extension): make it cuda_tile.
      vscode.workspace.onDidOpenTextDocument((doc) => this.setLanguage(doc)),
    ];
  }

  /** The client's executeCommand middleware (see the top of this file). */
  executeCommand(command: string, args: unknown[], next: ExecuteCommandSignature): vscode.ProviderResult<unknown> {
    if (command === SAVE_AS_BYTECODE_COMMAND && !isSaveParams(args[0])) {
      return this.saveAsBytecode(args[0] instanceof vscode.Uri ? args[0] : undefined);
    }
    return next(command, args);
  }

  /** The command while no running server offers it (not started, failed, or too old). */
  standInCommand(): vscode.Disposable {
    return vscode.commands.registerCommand(SAVE_AS_BYTECODE_COMMAND, () => {
      void vscode.window.showErrorMessage(
        'tile-lsp: Save as Bytecode needs the tile-lsp language server running, in a version with the "tileLsp.saveAsBytecode" command (see "tile-lsp: Restart Language Server").',
      );
    });
  }

  private setLanguage(doc: vscode.TextDocument): void {
    if (doc.uri.scheme === BYTECODE_SCHEME && doc.languageId !== this.host.languageId) {
      void vscode.languages.setTextDocumentLanguage(doc, this.host.languageId);
    }
  }

  /** The server's answer for one bytecode file (`file` has the file: scheme). */
  private async fetch(file: vscode.Uri): Promise<BytecodeText> {
    const client = await this.host.readyClient();
    if (!client) {
      return { error: 'the tile-lsp language server is not running (see "tile-lsp: Restart Language Server")' };
    }
    try {
      const got = await client.sendRequest<BytecodeText | null>(BYTECODE_TEXT_REQUEST, { uri: file.toString() });
      return got ?? { error: 'the server gave no answer' };
    } catch (err) {
      return { error: `the server could not decode it: ${err instanceof Error ? err.message : String(err)}` };
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const file = uri.with({ scheme: 'file' });
    const key = file.toString();
    const got = this.fetched.get(key) ?? (await this.fetch(file));
    this.fetched.delete(key);
    if (got.text !== undefined) {
      return got.text;
    }
    // Shown when a view is re-read and the file became unreadable (changed or deleted on disk).
    return `// ${path.basename(file.fsPath)}: ${got.error ?? 'no text'}\n`;
  }

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    const file = document.uri;
    if (file.scheme !== 'file') {
      panel.webview.html = errorHtml(path.basename(file.path), `only local files can be decoded (this one is ${file.scheme}:)`);
      return;
    }
    panel.webview.html = messageHtml(path.basename(file.fsPath), 'Decoding Tile IR bytecode…');
    const got = await this.fetch(file);
    if (got.text === undefined) {
      panel.webview.html = errorHtml(path.basename(file.fsPath), got.error ?? 'the server gave no text');
      return;
    }
    const view = bytecodeViewUri(file);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === view.toString());
    this.fetched.set(file.toString(), got);
    if (open) {
      this.changed.fire(view); // already open (maybe stale): read it again
    }
    let doc = await vscode.workspace.openTextDocument(view);
    if (doc.languageId !== this.host.languageId) {
      doc = await vscode.languages.setTextDocumentLanguage(doc, this.host.languageId);
    }
    await vscode.window.showTextDocument(doc, { viewColumn: panel.viewColumn ?? vscode.ViewColumn.Active, preview: false });
    panel.dispose(); // the text view takes this tab's place
  }

  /** tile-lsp: Save as Bytecode… — the active cuda_tile document written as a `.tileirbc`. */
  async saveAsBytecode(uri?: vscode.Uri): Promise<void> {
    const doc =
      (uri && vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())) ??
      vscode.window.activeTextEditor?.document;
    if (!doc || doc.languageId !== this.host.languageId) {
      void vscode.window.showErrorMessage('tile-lsp: open a cuda_tile document to save as bytecode.');
      return;
    }
    const client = await this.host.readyClient();
    if (!client) {
      void vscode.window.showErrorMessage('tile-lsp: the language server is not running (see "tile-lsp: Restart Language Server").');
      return;
    }
    let base: string | undefined;
    if (doc.uri.scheme === 'file' || doc.uri.scheme === BYTECODE_SCHEME) {
      base = doc.uri.fsPath;
    } else {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      base = folder?.scheme === 'file' ? path.join(folder.fsPath, 'kernel.mlir') : undefined;
    }
    const target = await vscode.window.showSaveDialog({
      title: 'Save as Tile IR Bytecode',
      saveLabel: 'Save as Bytecode',
      defaultUri: base ? vscode.Uri.file(defaultBytecodePath(base)) : undefined,
      filters: { 'Tile IR bytecode': ['tileirbc'], 'All files': ['*'] },
    });
    if (!target) {
      return;
    }
    if (target.scheme !== 'file') {
      void vscode.window.showErrorMessage(`tile-lsp: bytecode can only be written to a local file, not ${target.toString()}.`);
      return;
    }
    const newest = 'Newest the IR needs';
    const pick = await vscode.window.showQuickPick(
      [
        { label: newest, description: 'the oldest bytecode version that has every op and type used' },
        ...[...BYTECODE_VERSIONS].reverse().map((v) => ({ label: v, description: `Tile IR bytecode ${v}` })),
      ],
      { title: 'Bytecode version', placeHolder: 'Bytecode version to write' },
    );
    if (!pick) {
      return;
    }
    const params: { uri: string; path: string; version?: string } = {
      uri: client.code2ProtocolConverter.asUri(doc.uri),
      path: target.fsPath,
    };
    if (pick.label !== newest) {
      params.version = pick.label;
    }
    let result: SaveResult | null;
    try {
      result = await client.sendRequest<SaveResult | null>('workspace/executeCommand', {
        command: SAVE_AS_BYTECODE_COMMAND,
        arguments: [params],
      });
    } catch (err) {
      void vscode.window.showErrorMessage(`tile-lsp: Save as Bytecode failed: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (!result || result.error !== undefined || !result.path) {
      void vscode.window.showErrorMessage(`tile-lsp: could not save as bytecode: ${result?.error ?? 'the server gave no answer'}`);
      return;
    }
    const name = path.basename(result.path);
    void vscode.window.showInformationMessage(
      `tile-lsp: wrote ${name} (Tile IR bytecode ${result.version ?? '?'}, ${(result.bytes ?? 0).toLocaleString('en-US')} bytes) to ${result.path}`,
    );
    const diagnostics = result.diagnostics ?? [];
    if (diagnostics.length > 0) {
      void vscode.window.showWarningMessage(
        `tile-lsp: ${name} was written, but the IR has ${diagnostics.length} problem(s): ${diagnostics.join('; ')}`,
      );
    }
  }
}

/** The server command's own arguments: {uri, path, version?}. */
function isSaveParams(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && !(arg instanceof vscode.Uri) && typeof (arg as { path?: unknown }).path === 'string';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function messageHtml(name: string, message: string, error = false): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>body { font-family: var(--vscode-font-family); padding: 1em 2em; }
.error { color: var(--vscode-errorForeground); } code { font-family: var(--vscode-editor-font-family); }</style>
</head><body><h3>${escapeHtml(name)}</h3><p class="${error ? 'error' : ''}" id="message">${escapeHtml(message)}</p>
${error ? '<p>tile-lsp cannot show this file as Tile IR text. Reopen it with another editor (Reopen Editor With…) to see its bytes.</p>' : ''}
</body></html>`;
}

function errorHtml(name: string, message: string): string {
  return messageHtml(name, message, true);
}
