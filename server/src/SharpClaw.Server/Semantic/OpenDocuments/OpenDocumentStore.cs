using Microsoft.CodeAnalysis.Text;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.OpenDocuments;

/// <summary>The editor's text of one open document.</summary>
/// <param name="Path">Full path.</param>
/// <param name="Text">The buffer content (saved or not).</param>
public sealed record OpenDocument(string Path, SourceText Text);

/// <summary>An immutable view of the open documents; <see cref="Version"/> changes with every edit.</summary>
public sealed record OpenDocumentSnapshot(long Version, IReadOnlyDictionary<string, OpenDocument> Documents)
{
    public static OpenDocumentSnapshot Empty { get; } = new(0, new Dictionary<string, OpenDocument>(PathUtil.Comparer));
}

/// <summary>
/// The editor buffers of open C# documents, kept from LSP didOpen/didChange/didClose. Queries read
/// them on top of the disk content so an agent that edits a buffer and asks again sees its edit.
/// Thread-safe: notifications and queries arrive concurrently.
/// </summary>
public sealed class OpenDocumentStore
{
    private readonly Lock gate = new();
    private OpenDocumentSnapshot snapshot = OpenDocumentSnapshot.Empty;

    public OpenDocumentSnapshot Snapshot
    {
        get
        {
            lock (this.gate)
            {
                return this.snapshot;
            }
        }
    }

    /// <summary>Sets the buffer of <paramref name="uri"/>; ignores non-file URIs (untitled, git, ...).</summary>
    public void Set(string uri, string text) =>
        this.Update(uri, (documents, path) => documents[path] = new OpenDocument(path, SourceText.From(text)));

    public void Remove(string uri) => this.Update(uri, (documents, path) => documents.Remove(path));

    /// <summary>Full path of a <c>file:</c> URI, or null for other schemes.</summary>
    public static string? ToPath(string uri) =>
        Uri.TryCreate(uri, UriKind.Absolute, out Uri? parsed) && parsed.IsFile ? PathUtil.Normalize(parsed.LocalPath) : null;

    private void Update(string uri, Action<Dictionary<string, OpenDocument>, string> change)
    {
        if (ToPath(uri) is not { } path)
        {
            return;
        }

        lock (this.gate)
        {
            Dictionary<string, OpenDocument> documents = new(this.snapshot.Documents, PathUtil.Comparer);
            change(documents, path);
            this.snapshot = new OpenDocumentSnapshot(this.snapshot.Version + 1, documents);
        }
    }
}
