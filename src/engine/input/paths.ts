// The one check of the paths a surface hands the engine: the workspace folder (VS Code's folder, the
// CLI's and MCP's --cwd, an MCP client's root) and the file: URIs of raw LSP requests. A path that
// cannot be one (a NUL or another control character, a relative path, a URI that is not a local file)
// or a workspace that is not a folder is a typed invalid_request naming where it came from and what
// is wrong — never Node's own exception text, and never a surprise later in the call.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolError } from '../errors';

/** The first character a path may not contain, described; undefined when there is none. */
function forbiddenCharacter(value: string): string | undefined {
  // C0 controls and DEL: NUL ends a path for the OS, the others are never meant and hide in messages.
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f]/.exec(value);
  if (!control) return undefined;
  const code = control[0].charCodeAt(0);
  return `${code === 0 ? 'a NUL character' : `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`} at position ${control.index + 1}`;
}

/** A local file path from a file: URI, or the reason it is none. */
export function pathOfFileUri(uri: string): { path: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { problem: 'it is not a URI' };
  }
  if (url.protocol !== 'file:') return { problem: `it is a ${url.protocol} URI, not a file: URI` };
  let file: string;
  try {
    file = fileURLToPath(url);
  } catch (error) {
    // ERR_INVALID_FILE_URL_PATH (an encoded separator), ERR_INVALID_FILE_URL_HOST (another machine).
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === 'ERR_INVALID_FILE_URL_HOST' ? 'it names another machine' : 'its path contains an encoded separator' };
  }
  const forbidden = forbiddenCharacter(file);
  if (forbidden) return { problem: `its path contains ${forbidden}` };
  return { path: file };
}

/** `folder` as the workspace: an absolute path to an existing folder, or invalid_request naming `origin`. */
export function checkWorkspaceFolder(folder: string, origin: string): string {
  const printable = JSON.stringify(folder).slice(1, -1);
  const forbidden = forbiddenCharacter(folder);
  if (forbidden) throw new ToolError('invalid_request', `${origin} "${printable}" cannot be the workspace: it contains ${forbidden}.`);
  if (!path.isAbsolute(folder)) throw new ToolError('invalid_request', `${origin} "${printable}" cannot be the workspace: it is not an absolute path.`);
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(folder, { throwIfNoEntry: false });
  } catch (error) {
    throw new ToolError('invalid_request', `${origin} "${printable}" cannot be the workspace: ${(error as NodeJS.ErrnoException).code ?? 'it cannot be read'}.`);
  }
  if (!stat) throw new ToolError('invalid_request', `${origin} "${printable}" cannot be the workspace: it does not exist.`);
  if (!stat.isDirectory()) throw new ToolError('invalid_request', `${origin} "${printable}" cannot be the workspace: it is not a folder.`);
  return path.resolve(folder);
}

/** The workspace folder a file: URI names (an MCP client's root), or invalid_request naming `origin`. */
export function workspaceFolderOfUri(uri: string, origin: string): string {
  const parsed = pathOfFileUri(uri);
  if ('problem' in parsed) throw new ToolError('invalid_request', `${origin} ${JSON.stringify(uri.slice(0, 300))} cannot be the workspace: ${parsed.problem}.`);
  return checkWorkspaceFolder(parsed.path, origin);
}

/**
 * The first file: URI in raw LSP params (any `uri`/`targetUri` string, at any depth) that is not a local
 * file path, as "where: why"; undefined when every one is. The host decides which files are the workspace's.
 */
export function badUriIn(params: unknown, where = 'parameters'): string | undefined {
  if (Array.isArray(params)) {
    for (let i = 0; i < params.length; i++) {
      const bad = badUriIn(params[i], `${where}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (typeof params !== 'object' || params === null) return undefined;
  for (const [key, value] of Object.entries(params)) {
    if (typeof value === 'string' && /uri$/i.test(key)) {
      const parsed = pathOfFileUri(value);
      if ('problem' in parsed) return `${where}.${key}: ${parsed.problem}`;
    } else {
      const bad = badUriIn(value, `${where}.${key}`);
      if (bad) return bad;
    }
  }
  return undefined;
}
