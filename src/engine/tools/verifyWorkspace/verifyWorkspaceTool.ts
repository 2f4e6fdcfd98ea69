// verify_workspace: builds and tests the workspace through the session's one verification entry
// (Session.verify) and returns the typed report. MSBuild and tests execute project code, so the
// runner asks the permission policy for ShellExecution ('shell') before any process starts;
// read-only modes deny it there.
import { renderReport } from '../../verification/renderReport';
import { VerificationReportSchema, type VerificationReport } from '../../verification/report';
import { VerifyArgumentsSchema, type VerifyArguments } from '../../verification/request';
import { Methods } from '../../protocol/methods';
import { defineTool } from '../toolDefinition';
import { ToolError } from '../../errors';

export const verifyWorkspaceTool = defineTool<VerifyArguments, VerificationReport>({
  name: 'verify_workspace',
  displayName: 'Verify Workspace (build and test)',
  modelDescription:
    'Builds and/or tests the C# workspace with dotnet and returns a report: its status, ' +
    'compiler and MSBuild errors with file and line, test counts and each failed test with its message and stack. ' +
    'After you edit C# files, call this with scope "affected" before you say the change is done, and fix what it reports. Runs project code: the user is asked to approve.',
  userDescription: 'Build and test the workspace and report errors and failed tests.',
  referenceName: 'verifyWorkspace',
  tags: ['csharp', 'dotnet', 'build', 'test', 'sharpclaw'],
  input: VerifyArgumentsSchema,
  output: VerificationReportSchema,
  // The text says it all; a copy beside it would say it twice (structuredResult.ts).
  structure: null,
  effects: 'build',
  // The target and project graph come from the host (verification/hostGraph.ts); builds and tests run here.
  hostMethods: [Methods.resolveTarget, Methods.projectGraph],
  confirmation: (input) => ({
    title: 'Build and test with SharpClaw?',
    message: `Runs \`dotnet build\`/\`dotnet test\` (scope **${input.scope ?? 'from the settings, else all'}**${input.target ? ` on \`${input.target}\`` : ''}), which executes code from the project and build files.`,
  }),
  async invoke(input, context) {
    // The call's arguments, else the sharpclaw.verification.* settings someone set, else the defaults (Session.verify).
    const report = await context.verify(input, { requestedBy: 'verify_workspace', progress: (message) => context.progress(message) });
    if (report.status === 'denied') throw new ToolError('permission_denied', report.notes[0] ?? report.summary);
    return report;
  },
  render: (report) => renderReport(report),
});
