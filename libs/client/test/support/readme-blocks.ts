import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';

/** One fenced TypeScript block of a Markdown file. */
export interface CodeBlock {
  /** `README.md:133`: the file (relative to `root`) and the line of the opening fence. */
  where: string;
  file: string;
  /** 1-based line of the block's first line of code. */
  firstLine: number;
  code: string;
}

/** Every ```ts / ```typescript block of `path`. */
export function typescriptBlocks(path: string, root: string): CodeBlock[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  const file = relative(root, path);
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i])) continue;
    const start = i;
    const code: string[] = [];
    for (i++; i < lines.length && !lines[i].startsWith('```'); i++) code.push(lines[i]);
    blocks.push({
      where: `${file}:${start + 1}`,
      file,
      firstLine: start + 2,
      code: code.join('\n'),
    });
  }
  return blocks;
}

/** The compiler options a strict TypeScript app on Node's ESM resolution would use. */
export const STRICT_APP_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  // The package's declarations are checked (a strict app without skipLibCheck sees them);
  // TypeScript's own lib files are not (a third of the time, nothing of ours).
  skipLibCheck: false,
  skipDefaultLibCheck: true,
};

/**
 * Compiles `files` (absolute paths) with `options`; answers one line per problem, as
 * `<where>: <message>`, mapping a block file's lines back to the Markdown file's.
 */
export function compileProblems(
  files: string[],
  options: ts.CompilerOptions,
  origin: (file: string, line: number) => string,
): string[] {
  const program = ts.createProgram(files, options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${origin(diagnostic.file.fileName, line)}: ${message}`;
  });
}
