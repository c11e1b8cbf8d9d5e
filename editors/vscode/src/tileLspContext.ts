// The extension's state: the language client, its commands, the status bar item.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  DocumentSelector,
  ErrorCodes,
  LanguageClient,
  LanguageClientOptions,
  ResponseError,
  ServerOptions,
} from 'vscode-languageclient/node';
import { BYTECODE_SCHEME, BytecodeSupport, SAVE_AS_BYTECODE_COMMAND } from './bytecode';

export const LANGUAGE_ID = 'cuda-tile';
const SECTION = 'tileLsp';
/** Custom request the server answers with the text of one pipeline stage. */
export const VIEW_STAGE_REQUEST = 'tileLsp/viewStage';
/** The same, as a workspace/executeCommand command, used when the server advertises it. */
export const VIEW_STAGE_COMMAND = 'tileLsp.viewStage';
/** Server notification: how far the pipeline's diagnostics for a document version are published. */
export const PIPELINE_STATUS_NOTIFICATION = 'tileLsp/pipelineStatus';

interface PipelineStatus {
  uri: string;
  version: number;
  state: string; // "stages" (through PTX), then "done", "timeout" or "crash"
  seconds: number;
}

/** Languages of lowered text (previews) the server links back to the source. */
const LOWERED_LANGUAGES = ['ptx', 'cuda-tile-stage', 'cuda-tile-llvm-ir'];

/** Pipeline stages, in order, with the language their text is shown in. */
export const STAGES: { stage: string; label: string; language: string }[] = [
  { stage: 'cuda_tile', label: 'cuda_tile (parsed + verified)', language: LANGUAGE_ID },
  { stage: 'tileaa', label: 'tileaa (MLIR)', language: 'cuda-tile-stage' },
  { stage: 'gpu', label: 'gpu (MLIR)', language: 'cuda-tile-stage' },
  { stage: 'nvvm', label: 'nvvm (MLIR)', language: 'cuda-tile-stage' },
  { stage: 'llvm', label: 'llvm (MLIR dialect)', language: 'cuda-tile-stage' },
  { stage: 'llvm-ir', label: 'llvm-ir (LLVM IR)', language: 'cuda-tile-llvm-ir' },
  { stage: 'ptx', label: 'ptx', language: 'ptx' },
  { stage: 'cubin', label: 'cubin (summary / disassembly)', language: 'plaintext' },
];

/** Server settings (tile_lsp/session.py `Settings`, the schema of record). */
const SERVER_KEYS = [
  'gpuName',
  'computeCapability',
  'optLevel',
  'lineinfo',
  'ptxasPath',
  'previewOnSave',
  'previewDir',
  'pipelineTimeout',
  'maxFileSize',
];
/**
 * Settings that name a program to run or a folder to write: in an untrusted workspace (Restricted
 * Mode) only their user (global) values count, never the workspace's (package.json's
 * `capabilities.untrustedWorkspaces.restrictedConfigurations`; serverPath and ptxasPath are also
 * `"scope": "machine"`). The server checks them again (tile_lsp/session.py `program_refusal`).
 */
export const RESTRICTED_KEYS = ['serverPath', 'ptxasPath', 'previewDir'];
/** Languages a plain `.mlir` file may have: vscode-mlir's `mlir`, or plain text without it. */
export const MLIR_LANGUAGES = ['mlir', 'plaintext'];

interface StageResult {
  output?: string;
  language?: string;
  uri?: string;
}

export class TileLspContext implements vscode.Disposable {
  client: LanguageClient | undefined;
  readonly languageId = LANGUAGE_ID;
  /** The client's current start (or restart): what readyClient waits for. */
  private starting: Promise<void> | undefined;
  private readonly bytecode = new BytecodeSupport(this);
  /** Save as Bytecode's stand-in while no running server registers the command (bytecode.ts). */
  private standIn: vscode.Disposable | undefined;
  private readonly status: vscode.StatusBarItem;
  private readonly pipeline: vscode.StatusBarItem;
  private readonly output: vscode.OutputChannel;
  /** The last tileLsp/pipelineStatus per document URI. */
  private readonly pipelineStates = new Map<string, PipelineStatus>();

  constructor(private readonly extensionContext: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('tile-lsp');
    this.status = vscode.window.createStatusBarItem('tileLsp.target', vscode.StatusBarAlignment.Right, 100);
    this.status.name = 'tile-lsp target';
    this.status.command = { title: 'Set target', command: 'workbench.action.openSettings', arguments: ['tileLsp.gpuName'] };
    this.pipeline = vscode.window.createStatusBarItem('tileLsp.pipeline', vscode.StatusBarAlignment.Right, 99);
    this.pipeline.name = 'tile-lsp pipeline';
    this.pipeline.command = { title: 'Show PTX', command: 'tileLsp.showPtx' };
  }

  async activate(): Promise<void> {
    const subs = this.extensionContext.subscriptions;
    subs.push(this, this.output, this.status, this.pipeline);
    subs.push(
      vscode.commands.registerCommand('tileLsp.showStage', (stage?: string) => this.showStage(stage)),
      vscode.commands.registerCommand('tileLsp.showPtx', () => this.showStage('ptx')),
      vscode.commands.registerCommand('tileLsp.restartServer', () => this.restart()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.serverPath`) || e.affectsConfiguration(`${SECTION}.upstreamMlir`)) {
          void this.restart();
        } else if (e.affectsConfiguration(SECTION)) {
          void this.sendSettings();
        }
        if (e.affectsConfiguration(SECTION)) {
          this.updateStatus();
        }
      }),
      // Trusting the workspace lets its values of the restricted settings count: start again with them.
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.restart()),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateStatus()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document) {
          this.updateStatus(); // a new version: its pipeline status is not in yet
        }
      }),
      vscode.workspace.onDidOpenTextDocument((doc) => {
        this.detectCudaTile(doc);
        this.updateStatus(); // a language change (setTextDocumentLanguage) re-opens the document
      }),
    );
    // Bytecode views and Save as Bytecode (src/bytecode.ts); registered before the client starts,
    // so that a `.tileirbc` opened at startup finds its editor (it waits for the client).
    subs.push(...this.bytecode.register(), { dispose: () => this.standIn?.dispose() });
    vscode.workspace.textDocuments.forEach((doc) => this.detectCudaTile(doc));
    this.updateStatus();
    this.starting = this.start();
    await this.starting;
  }

  /** The client once its current start is over; undefined when it is not running. */
  async readyClient(): Promise<LanguageClient | undefined> {
    await this.starting?.catch(() => undefined);
    return this.client?.isRunning() ? this.client : undefined;
  }

  /** `.mlir` files claimed by vscode-mlir (or plain text) that are really cuda_tile switch to our language. */
  private detectCudaTile(doc: vscode.TextDocument): void {
    const detect = vscode.workspace.getConfiguration(SECTION).get<boolean>('detectCudaTileInMlir', true);
    if (!detect || doc.languageId === LANGUAGE_ID || !doc.fileName.endsWith('.mlir')) {
      return;
    }
    if (!['mlir', 'plaintext'].includes(doc.languageId)) {
      return;
    }
    if (looksLikeCudaTile(doc.getText(new vscode.Range(0, 0, 200, 0)))) {
      void vscode.languages.setTextDocumentLanguage(doc, LANGUAGE_ID);
    }
  }

  serverSettings(): Record<string, unknown> {
    const settings: Record<string, unknown> = {};
    for (const key of SERVER_KEYS) {
      settings[key] = setting(key) ?? null;
    }
    return settings;
  }

  /** workspace/didChangeConfiguration with the settings as `serverSettings` reads them (not
   * vscode-languageclient's `synchronize`, which would send the workspace's restricted values). */
  private async sendSettings(): Promise<void> {
    const client = this.client;
    if (client?.isRunning()) {
      await client
        .sendNotification('workspace/didChangeConfiguration', { settings: { [SECTION]: this.serverSettings() } })
        .catch(() => undefined);
    }
  }

  /** Starts the client; a server path that doesn't resolve gives an error with an "Open Settings" button. */
  async start(): Promise<void> {
    // The client registers the server's commands (tileLsp.saveAsBytecode among them) as it starts.
    this.standIn?.dispose();
    this.standIn = undefined;
    try {
      await this.startClient();
    } finally {
      const commands = this.client?.isRunning()
        ? this.client.initializeResult?.capabilities.executeCommandProvider?.commands ?? []
        : [];
      if (!commands.includes(SAVE_AS_BYTECODE_COMMAND)) {
        this.standIn = this.bytecode.standInCommand();
      }
    }
  }

  private async startClient(): Promise<void> {
    const serverPath = setting<string>('serverPath') || 'tile-lsp';
    const command = resolveExecutable(serverPath);
    if (!command) {
      void this.serverPathError(serverPath, 'was not found');
      return;
    }
    // No `transport`: with TransportKind.stdio vscode-languageclient appends `--stdio`, which
    // `tile-lsp serve` rejects (argparse exit 2). A plain executable talks stdio anyway.
    const serverOptions: ServerOptions = { command, args: ['serve'] };
    const upstream = vscode.workspace.getConfiguration(SECTION).get<boolean>('upstreamMlir', true);
    const documentSelector: DocumentSelector = [
      { scheme: 'file', language: LANGUAGE_ID },
      { scheme: 'untitled', language: LANGUAGE_ID },
      // Read-only text views of Tile IR bytecode files (src/bytecode.ts).
      { scheme: BYTECODE_SCHEME, language: LANGUAGE_ID },
      // Preview files (PTX, LLVM IR, stage dumps): Go to Definition leads back to the source op.
      ...LOWERED_LANGUAGES.map((language) => ({ scheme: 'file', language })),
    ];
    if (upstream) {
      // Upstream gpu/nvgpu/nvvm `.mlir` files, also while vscode-mlir serves them: the middleware
      // below only opens those whose text is in upstream dialects on the server.
      documentSelector.push({ scheme: 'file', language: 'mlir' }, { scheme: 'untitled', language: 'mlir' });
      documentSelector.push({ scheme: 'file', language: 'plaintext', pattern: '**/*.mlir' });
    }
    const served = new Set<string>();
    const serve = (doc: vscode.TextDocument) => {
      const key = doc.uri.toString();
      if (doc.languageId === LANGUAGE_ID || served.has(key)) {
        return true;
      }
      if (LOWERED_LANGUAGES.includes(doc.languageId)) {
        served.add(key);
        return true;
      }
      if (looksLikeUpstreamMlir(doc.getText())) {
        served.add(key);
        return true;
      }
      return false;
    };
    const isServed = (doc: vscode.TextDocument) => doc.languageId === LANGUAGE_ID || served.has(doc.uri.toString());
    const clientOptions: LanguageClientOptions = {
      documentSelector,
      middleware: {
        didOpen: (doc, next) => (serve(doc) ? next(doc) : Promise.resolve()),
        didChange: (event, next) => (isServed(event.document) ? next(event) : Promise.resolve()),
        didSave: (doc, next) => (isServed(doc) ? next(doc) : Promise.resolve()),
        didClose: (doc, next) => {
          const was = served.delete(doc.uri.toString()) || doc.languageId === LANGUAGE_ID;
          return was ? next(doc) : Promise.resolve();
        },
        // tileLsp.saveAsBytecode from the palette: the Save as Bytecode dialog (bytecode.ts).
        executeCommand: (command, args, next) => this.bytecode.executeCommand(command, args, next),
      },
      initializationOptions: this.serverSettings(),
      // (no `synchronize` of the section: sendSettings filters the restricted settings)
      outputChannel: this.output,
    };
    this.client = new LanguageClient('tileLsp', 'tile-lsp', serverOptions, clientOptions);
    this.client.onNotification(PIPELINE_STATUS_NOTIFICATION, (params: PipelineStatus) => {
      this.pipelineStates.set(params.uri, params);
      this.updateStatus();
    });
    try {
      await this.client.start();
    } catch (err) {
      this.output.appendLine(`tile-lsp failed to start: ${err}`);
      const client = this.client;
      this.client = undefined;
      void client.dispose().catch(() => undefined);
      void this.serverPathError(serverPath, `could not be started (${errorMessage(err)})`);
    }
  }

  private async serverPathError(serverPath: string, what: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(
      `tile-lsp: the language server "${serverPath}" ${what}. Set "tileLsp.serverPath" to the tile-lsp executable.`,
      'Open Settings',
    );
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'tileLsp.serverPath');
    }
  }

  async restart(): Promise<void> {
    const previous = this.starting;
    this.starting = (async () => {
      await previous?.catch(() => undefined); // a start under way: stop the client it made
      const client = this.client;
      this.client = undefined;
      if (client) {
        await client.stop().catch(() => undefined);
      }
      await this.start();
    })();
    await this.starting;
  }

  updateStatus(): void {
    const config = vscode.workspace.getConfiguration(SECTION);
    this.status.text = `$(chip) ${targetLabel(config.get<string | null>('gpuName'), config.get<number | null>('computeCapability'))}`;
    this.status.tooltip = 'tile-lsp target architecture (tileLsp.gpuName / tileLsp.computeCapability). Click to change.';
    const lang = vscode.window.activeTextEditor?.document.languageId ?? '';
    const doc = vscode.window.activeTextEditor?.document;
    if ([LANGUAGE_ID, 'ptx', 'cuda-tile-stage', 'cuda-tile-llvm-ir'].includes(lang) || (doc && isUpstreamDocument(doc))) {
      this.status.show();
    } else {
      this.status.hide();
    }
    const state = doc ? this.pipelineStates.get(doc.uri.toString()) : undefined;
    if (doc && state && state.version === doc.version) {
      this.pipeline.text = pipelineLabel(state);
      this.pipeline.tooltip =
        state.state === 'stages'
          ? 'tile-lsp: every stage\'s diagnostics through PTX are shown; ptxas is running. Click: show the PTX.'
          : `tile-lsp: pipeline ${state.state} for this version. Click: show the PTX.`;
      this.pipeline.show();
    } else {
      this.pipeline.hide();
    }
  }

  /** Asks the server for one stage of the active kernel and shows it in an editor beside. */
  async showStage(stage?: string): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || (editor.document.languageId !== LANGUAGE_ID && !isUpstreamDocument(editor.document))) {
      void vscode.window.showErrorMessage('tile-lsp: open a cuda_tile kernel or an upstream gpu/nvgpu/nvvm .mlir file first.');
      return;
    }
    if (!stage) {
      const pick = await vscode.window.showQuickPick(
        STAGES.map((s) => ({ label: s.stage, description: s.label })),
        { placeHolder: 'Pipeline stage to show' },
      );
      if (!pick) {
        return;
      }
      stage = pick.label;
    }
    const client = this.client;
    if (!client || !client.isRunning()) {
      void vscode.window.showErrorMessage('tile-lsp: the language server is not running (see "tile-lsp: Restart Language Server").');
      return;
    }
    const params = { uri: editor.document.uri.toString(), stage };
    let result: StageResult | null;
    try {
      const commands = client.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
      result = commands.includes(VIEW_STAGE_COMMAND)
        ? await client.sendRequest<StageResult | null>('workspace/executeCommand', { command: VIEW_STAGE_COMMAND, arguments: [params] })
        : await client.sendRequest<StageResult | null>(VIEW_STAGE_REQUEST, params);
    } catch (err) {
      if (err instanceof ResponseError && err.code === ErrorCodes.MethodNotFound) {
        void vscode.window.showErrorMessage(
          `tile-lsp: this server does not support showing pipeline stages yet (no "${VIEW_STAGE_REQUEST}" request). Update tile-lsp.`,
        );
      } else {
        void vscode.window.showErrorMessage(`tile-lsp: could not compute stage "${stage}": ${errorMessage(err)}`);
      }
      return;
    }
    if (!result || (result.output === undefined && !result.uri)) {
      void vscode.window.showErrorMessage(`tile-lsp: the server returned no output for stage "${stage}".`);
      return;
    }
    const language = result.language ?? STAGES.find((s) => s.stage === stage)?.language ?? 'plaintext';
    const doc =
      result.output !== undefined
        ? await vscode.workspace.openTextDocument({ content: result.output, language })
        : await vscode.workspace.openTextDocument(vscode.Uri.parse(result.uri as string));
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true });
  }

  async dispose(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.stop().catch(() => undefined);
  }
}

/** The pipeline status bar text: "$(sync~spin) PTX 840 ms, ptxas…" while ptxas runs, then "$(check) pipeline 1.07 s"
 * (the worker's time for that version; a few ms when every entry came from the cache). */
export function pipelineLabel(status: { state: string; seconds: number }): string {
  const seconds = status.seconds < 1 ? `${Math.round(status.seconds * 1000)} ms` : `${status.seconds.toFixed(2)} s`;
  switch (status.state) {
    case 'stages':
      return `$(sync~spin) PTX ${seconds}, ptxas…`;
    case 'done':
      return `$(check) pipeline ${seconds}`;
    case 'timeout':
      return '$(warning) pipeline timed out';
    default:
      return `$(error) pipeline ${status.state}`;
  }
}

/** "sm_90"-style label: gpuName wins, then computeCapability, else "no target". */
export function targetLabel(gpuName: string | null | undefined, computeCapability: number | null | undefined): string {
  if (gpuName) {
    return gpuName;
  }
  if (computeCapability !== null && computeCapability !== undefined) {
    return `sm_${computeCapability}`;
  }
  return 'no target';
}

/** True when the first meaningful line starts a cuda_tile module or a bare entry. */
export function looksLikeCudaTile(text: string): boolean {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) {
      continue;
    }
    return /^(cuda_tile\.module\b|entry\s+@)/.test(line);
  }
  return false;
}

/** A `.mlir` document (language mlir or plain text) in upstream dialects that tile-lsp serves. */
export function isUpstreamDocument(doc: vscode.TextDocument): boolean {
  if (!MLIR_LANGUAGES.includes(doc.languageId) || !(doc.fileName.endsWith('.mlir') || doc.isUntitled)) {
    return false;
  }
  const upstream = vscode.workspace.getConfiguration(SECTION).get<boolean>('upstreamMlir', true);
  return upstream && looksLikeUpstreamMlir(doc.getText());
}

/** True for MLIR text in upstream dialects (gpu, nvgpu, nvvm, llvm, func, arith, ...) with no
 * cuda_tile in it: the server's own test (tile_lsp/compiler/upstream.py `is_upstream`). */
export function looksLikeUpstreamMlir(text: string): boolean {
  if (text.includes('cuda_tile') || text.includes('entry @')) {
    return false;
  }
  return /\b(?:gpu|nvgpu|nvvm|llvm|func|arith|scf|memref|math|cf|vector)\.[a-z_]+/.test(text);
}

/** The executable for a configured path: absolute/relative paths must exist; bare names are looked up on PATH. */
export function resolveExecutable(command: string): string | undefined {
  const isFile = (p: string) => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const expanded = command.replace(/^~(?=$|[\\/])/, process.env.HOME ?? '~');
  if (expanded.includes('/') || expanded.includes('\\')) {
    // A relative path is taken from the first workspace folder only in a trusted workspace.
    const folder = vscode.workspace.isTrusted ? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath : undefined;
    if (!path.isAbsolute(expanded) && !folder) {
      return undefined;
    }
    const full = path.isAbsolute(expanded) || !folder ? expanded : path.join(folder, expanded);
    return isFile(full) ? full : undefined;
  }
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const ext of exts) {
      const candidate = path.join(dir, expanded + ext);
      if (dir && isFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/**
 * A tileLsp setting's value; for RESTRICTED_KEYS in an untrusted workspace the user's own
 * (global) value or the default, never a workspace or folder value.
 */
export function setting<T>(key: string): T | undefined {
  const config = vscode.workspace.getConfiguration(SECTION);
  if (!vscode.workspace.isTrusted && RESTRICTED_KEYS.includes(key)) {
    const found = config.inspect<T>(key);
    return found?.globalValue ?? found?.defaultValue;
  }
  return config.get<T>(key);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
