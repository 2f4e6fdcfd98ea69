using SharpClaw.Server.Semantic.TestSelection;

namespace SharpClaw.Server.Tests;

/// <summary>
/// ChangedMembers: the members whose bodies changed between HEAD's text and the working copy's, and every change that
/// is not confined to member bodies named as a reason to run all tests (issue 41's fallbacks).
/// </summary>
public sealed class ChangedMembersTests
{
    private const string Before = """
        using System;

        namespace Shapes;

        public sealed class Parser
        {
            private static readonly int Limit = 10;
            private int count = 1;

            static Parser() { }

            public Parser() { }

            public Parser(int count) : this() => this.count = count;

            public int Size { get; set; } = 3;

            public int Twice => this.count * 2;

            [Obsolete]
            public int Parse(string text) => text.Length;

            public int Count(string text)
            {
                // counts
                return text.Length;
            }
        #if NET
            public int Modern() => 1;
        #endif
        }

        public enum Mode { Fast = 1, Slow = 2 }
        """;

    /// <summary>HEAD's text against the same with <paramref name="from"/> replaced by <paramref name="to"/>.</summary>
    private static ChangedMembers.Result Diff(string from, string to)
    {
        Assert.Contains(from, Before, StringComparison.Ordinal);
        return ChangedMembers.Compare(Before, Before.Replace(from, to, StringComparison.Ordinal), "Parser.cs");
    }

    [Fact]
    public void ABodyChange_NamesTheMemberAtItsNewPosition()
    {
        ChangedMembers.Result result = Diff("return text.Length;", "return text.Length + 1;");
        ChangedMembers.Member member = Assert.Single(result.Members);
        Assert.Equal(("Shapes.Parser.Count(string)", 23, 16), (member.Name, member.Line, member.Character));
        Assert.Empty(result.Fallbacks);

        Assert.Equal(["Shapes.Parser.Parse(string)"], Diff("=> text.Length;", "=> text.Length - 1;").Members.Select(m => m.Name));
        Assert.Equal(["Shapes.Parser.Twice"], Diff("this.count * 2", "this.count * 3").Members.Select(m => m.Name));
    }

    [Fact]
    public void CommentsAndWhitespace_AreNoChange()
    {
        ChangedMembers.Result result = Diff("// counts", "// counts the characters\n\n");
        Assert.Empty(result.Members);
        Assert.Empty(result.Fallbacks);
    }

    [Fact]
    public void InstanceInitializers_NameTheConstructorsThatRunThem()
    {
        // Parser(int) chains to this(), which runs the initializers: only Parser() is named.
        ChangedMembers.Result field = Diff("private int count = 1;", "private int count = 2;");
        Assert.Equal([("Shapes.Parser.count (its initializer, run by a constructor)", 12)], field.Members.Select(m => (m.Name, m.Line)));
        Assert.Empty(field.Fallbacks);

        ChangedMembers.Result property = Diff("{ get; set; } = 3;", "{ get; set; } = 4;");
        Assert.Equal([12], property.Members.Select(m => m.Line));
    }

    [Theory]
    [InlineData("public int Parse(string text)", "public int Parse(object text)", "Parser.cs: Shapes.Parser.Parse(object) was added")]
    [InlineData("[Obsolete]", "", "Parser.cs: the declaration of Shapes.Parser.Parse(string) changed")]
    [InlineData("public int Count(string text)", "internal int Count(string text)", "Parser.cs: the declaration of Shapes.Parser.Count(string) changed")]
    [InlineData("static Parser() { }", "static Parser() { Console.WriteLine(); }", "Parser.cs: a static constructor changed (Shapes.Parser.static constructor())")]
    [InlineData("Limit = 10;", "Limit = 11;", "Parser.cs: a static initializer changed (Shapes.Parser.Limit)")]
    [InlineData("public int Modern() => 1;", "public int Modern() => 2;", "Parser.cs changed code under #if or another preprocessor directive")]
    [InlineData("using System;", "using System;\nusing System.Linq;", "Parser.cs changed its using directives or assembly attributes")]
    [InlineData("Fast = 1", "Fast = 3", "Parser.cs: the declaration of Shapes.enum Mode changed")]
    [InlineData("public sealed class Parser", "public class Parser", "Parser.cs: the declaration of Shapes.class Parser changed")]
    public void ChangesBeyondMemberBodies_AreReasonsToRunEveryTest(string from, string to, string reason)
    {
        ChangedMembers.Result result = Diff(from, to);
        Assert.Contains(reason, result.Fallbacks);
        Assert.Empty(result.Members);
    }

    [Fact]
    public void AddedAndRemovedMembers_AndFiles_AreReasons()
    {
        Assert.Equal(["Parser.cs: Shapes.Parser.Extra() was added"], Diff("    [Obsolete]", "    public void Extra() { }\n\n    [Obsolete]").Fallbacks);
        Assert.Equal(["Parser.cs: Shapes.Parser.Twice was removed"], Diff("public int Twice => this.count * 2;", string.Empty).Fallbacks);
        Assert.Equal(["New.cs was added"], ChangedMembers.Compare(null, "class A { }", "New.cs").Fallbacks);
        Assert.Equal(["Old.cs was deleted"], ChangedMembers.Compare("class A { }", null, "Old.cs").Fallbacks);
    }
}
