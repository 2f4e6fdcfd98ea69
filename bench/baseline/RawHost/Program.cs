// Reads LSP-framed messages from stdin and answers each request with an empty result, until
// "exit". Only as much protocol as the startup benchmark needs.
using System.Text;

var input = Console.OpenStandardInput();
var output = Console.OpenStandardOutput();
while (true)
{
    var header = new StringBuilder();
    while (!header.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
    {
        var b = input.ReadByte();
        if (b < 0) return 0;
        header.Append((char)b);
    }
    var length = int.Parse(header.ToString().Split("Content-Length:")[1].Split("\r\n")[0].Trim());
    var body = new byte[length];
    var read = 0;
    while (read < length) read += input.Read(body, read, length - read);
    var text = Encoding.UTF8.GetString(body);
    if (text.Contains("\"method\":\"exit\"")) return 0;
    var idStart = text.IndexOf("\"id\":", StringComparison.Ordinal);
    if (idStart < 0) continue;
    var id = new string(text[(idStart + 5)..].TakeWhile(char.IsDigit).ToArray());
    var reply = Encoding.UTF8.GetBytes($"{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"capabilities\":{{}}}}}}");
    output.Write(Encoding.ASCII.GetBytes($"Content-Length: {reply.Length}\r\n\r\n"));
    output.Write(reply);
    output.Flush();
}
