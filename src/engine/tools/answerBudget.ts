// How long a tool's answer may grow: clients cut answers past 8 KB, and an agent pays for every
// byte, so a list of results stops where its lines reach this budget and says where to page on,
// leaving room for the lines before and after the list.

/** Bytes of result lines in one answer (the rest of the 8 KB holds its header and closing lines). */
export const resultLinesBudget = 6 * 1024;

/** How many of the leading `lines` fit in `budget` bytes, each with its newline; never fewer than one. */
export function linesWithinBudget(lines: readonly string[], budget = resultLinesBudget): number {
  let bytes = 0;
  for (let i = 0; i < lines.length; i++) {
    bytes += Buffer.byteLength(lines[i]) + 1;
    if (i > 0 && bytes > budget) return i;
  }
  return lines.length;
}
