// The CLI's version: the package version the bundler writes in (esbuild's define), "0.0.0" when
// the sources run unbundled (tests compiled with tsc).
declare const SHARPCLAW_VERSION: string | undefined;

export function cliVersion(): string {
  return typeof SHARPCLAW_VERSION === 'string' ? SHARPCLAW_VERSION : '0.0.0';
}
