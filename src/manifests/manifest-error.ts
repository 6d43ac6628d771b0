/** A manifest set that cannot be used. `file` names the offending file when there is one. */
export class ManifestError extends Error {
  readonly file: string | null;
  readonly problems: readonly string[];

  constructor(file: string | null, problems: readonly string[]) {
    const head = file === null ? 'Invalid game manifests' : `Invalid manifest ${file}`;
    super(problems.length === 1 ? `${head}: ${problems[0]}` : `${head}:\n - ${problems.join('\n - ')}`);
    this.name = 'ManifestError';
    this.file = file;
    this.problems = problems;
  }
}
