// Smallest replacements that turn one text into another, as offsets into the old text. A rename
// keeps the line count, so changes are found line by line (one short range per changed line,
// which is what the refactor preview and VS Code's undo show); otherwise one range spans from the
// first to the last difference. Pure: no vscode import, unit-tested.

export interface TextReplacement {
  /** Offset in the old text where the replaced range starts. */
  start: number;
  /** Offset in the old text just after the replaced range. */
  end: number;
  newText: string;
}

/** Splits after each line break, keeping the breaks, so offsets add up exactly. */
function linesWithBreaks(text: string): string[] {
  return text.match(/[^\r\n]*(\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}

function trimmed(before: string, after: string, offset: number): TextReplacement | undefined {
  if (before === after) return undefined;
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  return { start: offset + prefix, end: offset + before.length - suffix, newText: after.slice(prefix, after.length - suffix) };
}

export function textReplacements(before: string, after: string): TextReplacement[] {
  const oldLines = linesWithBreaks(before);
  const newLines = linesWithBreaks(after);
  if (oldLines.length !== newLines.length) {
    const whole = trimmed(before, after, 0);
    return whole ? [whole] : [];
  }
  const replacements: TextReplacement[] = [];
  let offset = 0;
  oldLines.forEach((line, index) => {
    const change = trimmed(line, newLines[index]!, offset);
    if (change) replacements.push(change);
    offset += line.length;
  });
  return replacements;
}

/** Applies replacements (non-overlapping, any order) to the old text: the inverse check of textReplacements. */
export function applyReplacements(text: string, replacements: readonly TextReplacement[]): string {
  let result = text;
  for (const change of [...replacements].sort((a, b) => b.start - a.start)) result = result.slice(0, change.start) + change.newText + result.slice(change.end);
  return result;
}
