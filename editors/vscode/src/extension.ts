// Entry point: everything lives in TileLspContext (cf. vscode-mlir's mlirContext.ts).
import * as vscode from 'vscode';
import { TileLspContext } from './tileLspContext';

let context: TileLspContext | undefined;

export async function activate(extensionContext: vscode.ExtensionContext): Promise<void> {
  context = new TileLspContext(extensionContext);
  await context.activate();
}

export async function deactivate(): Promise<void> {
  await context?.dispose();
  context = undefined;
}
