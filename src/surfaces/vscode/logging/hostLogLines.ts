// How a line that reaches the SharpClaw log from the Roslyn host (its stderr, through
// vscode-languageclient) or from the language client itself is shown: at the host's own level
// without the host's timestamp (the log channel adds one), and a typed rejection (new_errors,
// symbol_not_found, …) as one debug line instead of an error with the JSON-RPC payload (the caller
// already has it; the channel's default level shows info and above).
export type HostLineLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface HostLogLine {
  level: HostLineLevel;
  message: string;
}

/** "2026-12-01T09:20:00.123Z [info ] message" — HostLog.Write's format. */
const hostLine = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z \[(debug|info|warn|error)\s*\] ?(.*)$/s;
/** vscode-languageclient's "Request <method> failed." with the host's typed-error code (-32001). */
const failedRequest = /^Request (\S+) failed\.[\s\S]*Code: -32001\b/;

/**
 * Classifies one line. An indented line without a host timestamp continues a multi-line host
 * message (an exception's stack) and keeps the level of the host line before it; any other line
 * is the language client's own, at the level the client gave it.
 */
export function classifyHostLine(text: string, previous: HostLineLevel = 'info', clientLevel: HostLineLevel = 'error'): HostLogLine {
  const typed = failedRequest.exec(text);
  if (typed) return { level: 'debug', message: typedRejectionLine(typed[1]!, text) };
  const line = hostLine.exec(text);
  if (line) return { level: line[1] as HostLineLevel, message: line[2]! };
  return { level: /^\s/.test(text) ? previous : clientLevel, message: text };
}

/** "sharpclaw/edit rejected: new_errors: Renaming … introduces 1 new error." */
function typedRejectionLine(method: string, text: string): string {
  const kind = /"kind"\s*:\s*"([^"]+)"/.exec(text)?.[1];
  const message = /Message: (.*)/.exec(text)?.[1]?.trim() ?? '';
  return `${method} rejected${kind ? `: ${kind}` : ''}${message ? `: ${message}` : ''}`;
}
