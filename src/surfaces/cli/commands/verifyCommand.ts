// `sharpclaw verify`: builds and tests through the session's one verification entry (Session.verify);
// the target, the project graph and the reached tests come from the resident Roslyn host `sharpclaw tool` uses (started on first
// use), so a verify after tool calls does not start and JIT a host and compile the solution again. Flags win over the
// settings files (~/.sharpclaw and <workspace>/.sharpclaw settings.jsonc), which win over defaults. Exit 0 when the check passed or was
// explicitly skipped (no .NET target, nothing changed), 1 when it failed, timed out, was
// cancelled, lacked prerequisites or was denied, 2 for a usage error.
import { bundledServerDll } from '../../../engine/host/hostLaunch';
import { ResidentHostTransport } from '../../../engine/host/residentHost';
import { Session } from '../../../engine/session';
import { isFailingStatus } from '../../../engine/verification/report';
import { renderReport } from '../../../engine/verification/renderReport';
import { parseVerifyOptions, verifyOptionSpecs } from '../../../engine/verification/request';
import { ToolError, asToolError } from '../../../engine/errors';
import type { CliCommand } from '../commands';
import { exitCodeFor, printFailure, printSuccess } from '../output';

export const verifyCommand: CliCommand = {
  name: 'verify',
  usage: 'sharpclaw verify [--scope build|tests|all|affected] [--target FILE] [--configuration C] [--framework F] [--restore] [--timeout S] [--changed FILE]... [--tests all|reached] [options]',
  summary: 'build and test the workspace and print a typed report (needs --allow-shell when not interactive)',
  options: verifyOptionSpecs,
  async run(values, _positionals, globals) {
    const args = parseVerifyOptions({
      scope: values.scope,
      target: values.target,
      configuration: values.configuration,
      framework: values.framework,
      restore: values.restore,
      timeout: values.timeout,
      changed: values.changed,
      tests: values.tests,
    });
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const session = new Session({
      surface: 'cli',
      workspaceFolder: () => globals.cwd,
      permissions: globals.permissions,
      transport: new ResidentHostTransport({ serverDll: bundledServerDll() }),
    });
    try {
      const report = await session.verify(args, {
        requestedBy: 'sharpclaw verify',
        signal: controller.signal,
        progress: (message) => {
          if (globals.outputFormat === 'text') process.stderr.write(`${message}\n`);
        },
      });
      const text = renderReport(report);
      if (!isFailingStatus(report.status)) {
        printSuccess(globals.outputFormat, 'verify', report, text);
        return 0;
      }
      const code = report.status === 'denied' ? 'permission_denied' : report.status === 'cancelled' ? 'cancelled' : report.status === 'timedOut' ? 'timeout' : report.status === 'missingPrerequisites' ? 'missing_prerequisites' : 'unverified';
      const error = new ToolError(code, report.summary);
      if (globals.outputFormat === 'json') printFailure('json', 'verify', error, report);
      else process.stdout.write(`${text}\n`);
      return 1;
    } catch (error) {
      const typed = asToolError(error);
      printFailure(globals.outputFormat, 'verify', typed);
      return exitCodeFor(typed);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await session.close();
      session.dispose();
    }
  },
};
