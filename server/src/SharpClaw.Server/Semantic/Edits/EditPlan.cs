using System.Security.Cryptography;
using System.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// One planned file operation: a content change of <see cref="Path"/>, or (with <see cref="NewPath"/>) a
/// rename that writes <see cref="After"/> to the new path and removes the old one. Bytes are exact: the
/// before bytes are what was on disk at planning time (restored byte for byte by rollback and undo).
/// </summary>
/// <param name="Changes">The text changes relative to <paramref name="BeforeText"/> (for previews), or null.</param>
public sealed record PlannedFile(string Path, string? NewPath, byte[] Before, byte[] After, string BeforeText, string AfterText, int Occurrences, IReadOnlyList<Microsoft.CodeAnalysis.Text.TextChange>? Changes = null)
{
    // Computed on each use (not stored): 'with' copies would otherwise keep the hashes of the original bytes.
    public string BeforeHash => ContentHash.Of(this.Before);

    public string AfterHash => ContentHash.Of(this.After);

    /// <summary>Where the after-state lives.</summary>
    public string AfterPath => this.NewPath ?? this.Path;

    public bool IsRename => this.NewPath is not null;

    /// <summary>The inverse operation (undo).</summary>
    public PlannedFile Inverse() =>
        this.NewPath is null
            ? new PlannedFile(this.Path, null, this.After, this.Before, this.AfterText, this.BeforeText, this.Occurrences)
            : new PlannedFile(this.NewPath, this.Path, this.After, this.Before, this.AfterText, this.BeforeText, this.Occurrences);
}

/// <summary>A complete, validated edit: every file operation in order.</summary>
/// <param name="Operation">rename, rename_file, code_actions, undo, redo.</param>
/// <param name="Summary">One line for prompts and receipts.</param>
/// <param name="Workspace">The workspace folder (absolute).</param>
/// <param name="Files">The operations, in write order.</param>
public sealed record EditPlan(string Operation, string Summary, string Workspace, IReadOnlyList<PlannedFile> Files)
{
    /// <summary>
    /// Why SharpClaw refuses to write this edit (unverified: a generator it does not run can see the change), or
    /// null. A refused plan is still shown as a preview, so a person can read it, and never stored as a proposal.
    /// </summary>
    public SemanticException? Refusal { get; init; }

    public IReadOnlyList<EditFileOperation> Operations(string workspace) =>
        [.. this.Files.Select(f => new EditFileOperation(
            f.IsRename ? "rename" : "change",
            PathUtil.ToWorkspaceRelative(workspace, f.Path),
            f.NewPath is null ? null : PathUtil.ToWorkspaceRelative(workspace, f.NewPath),
            f.Occurrences))];

    public IReadOnlyList<WriteFile> WriteFiles(string workspace) =>
        [.. this.Operations(workspace).Select(o => new WriteFile(o.Path, o.NewPath, o.Occurrences))];

    /// <summary>Every operation with its planned texts, for a client that shows or applies the edit itself.</summary>
    public IReadOnlyList<EditFileText> FileTexts(string workspace) =>
        [.. this.Files.Select(f => new EditFileText(
            PathUtil.ToWorkspaceRelative(workspace, f.Path),
            f.NewPath is null ? null : PathUtil.ToWorkspaceRelative(workspace, f.NewPath),
            f.BeforeText,
            f.AfterText,
            f.Occurrences))];
}

/// <summary>Content hashes (SHA-256, hex) of bytes on disk.</summary>
public static class ContentHash
{
    public static string Of(byte[] bytes) => Convert.ToHexString(SHA256.HashData(bytes));

    /// <summary>
    /// The hash of the file now, or null when it does not exist. A FIFO, device, socket or oversized file is
    /// never opened (see <see cref="BoundedFileRead"/>): it hashes to a marker no content hash equals.
    /// </summary>
    public static string? OfFile(string path) =>
        BoundedFileRead.ReadBytes(path, BoundedFileRead.MaxSourceBytes, out BoundedFileRead.Refusal refusal) is { } bytes ? Of(bytes)
        : refusal == BoundedFileRead.Refusal.Missing && !File.Exists(path) ? null
        : "not read: " + refusal;
}

/// <summary>Text ↔ bytes with the file's own newline sequence and UTF-8 (keeping a UTF-8 byte-order mark when there was one).</summary>
public static class FileText
{
    private static readonly byte[] Bom = [0xEF, 0xBB, 0xBF];

    public static bool HasBom(byte[] bytes) => bytes.AsSpan().StartsWith(Bom);

    /// <summary>Decodes like Roslyn's loader: UTF-8 (BOM stripped).</summary>
    public static string Decode(byte[] bytes) =>
        HasBom(bytes) ? Encoding.UTF8.GetString(bytes, 3, bytes.Length - 3) : Encoding.UTF8.GetString(bytes);

    /// <summary>
    /// The bytes to write for <paramref name="after"/>, given the file's original bytes: a file that used
    /// only CRLF (or only LF) keeps that sequence in every line, also in lines an edit inserted.
    /// </summary>
    public static byte[] Encode(string after, byte[] original)
    {
        string before = Decode(original);
        string? newline = NewlineOf(before);
        string text = newline is null ? after : after.ReplaceLineEndings(newline);
        byte[] body = Encoding.UTF8.GetBytes(text);
        return HasBom(original) ? [.. Bom, .. body] : body;
    }

    /// <summary>"\r\n" or "\n" when the text uses only that sequence; null when mixed or without newlines.</summary>
    public static string? NewlineOf(string text)
    {
        int crlf = 0;
        int lf = 0;
        for (int i = 0; i < text.Length; i++)
        {
            if (text[i] == '\n')
            {
                if (i > 0 && text[i - 1] == '\r')
                {
                    crlf++;
                }
                else
                {
                    lf++;
                }
            }
        }

        return (crlf, lf) switch
        {
            ( > 0, 0) => "\r\n",
            (0, > 0) => "\n",
            _ => null,
        };
    }
}
