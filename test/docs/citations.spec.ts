import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every citation resolves inside the repository: `docs/<file>.md § Heading` (and, inside docs/,
 * `<file>.md § Heading`; `README.md § Heading` anywhere) must name an existing file and one of
 * its headings, and nothing may cite what a reader of the repository cannot open: the design
 * and contract documents the project was built from ("ARCHITECTURE § N", "contract § …",
 * "STYLE § …") or tracker numbers ("the auth performance work", "#12"). docs/api.md is the contract
 * as this project implements it; docs/architecture.md the design.
 */
const ROOT = join(__dirname, '..', '..');
const SCANNED = ['apps', 'libs', 'test', 'bench', 'scripts', 'docs', 'deploy'];
const TEXT_FILE = /\.(ts|js|mjs|cjs|md|ya?ml|sh)$|^Dockerfile/;

interface Source {
  file: string;
  text: string;
}

function walk(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) {
      continue;
    }
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(full));
    else if (TEXT_FILE.test(entry.name)) files.push(full);
  }
  return files;
}

function sources(): Source[] {
  const files = [...SCANNED.flatMap((d) => walk(join(ROOT, d))), join(ROOT, 'README.md')];
  return files.map((full) => ({
    file: relative(ROOT, full).split('\\').join('/'),
    text: readFileSync(full, 'utf8'),
  }));
}

/** The headings of a markdown file (outside code fences), without the leading `#`s. */
export function headingsOf(markdown: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    headings.push(m[1]);
    // Cited by its name alone: `Configuration` for "Configuration (added by this service)",
    // `Sentinel Pass` for "Sentinel Pass: agents and activity".
    const name = /^(.+?)(?: \(.*\)|: .*)$/.exec(m[1]);
    if (name) headings.push(name[1]);
  }
  return headings;
}

/** Text after a `§ `, with comment line breaks (`\n * `, `\n // `, `\n # `) read as spaces. */
function continuation(text: string, from: number): string {
  return text
    .slice(from, from + 300)
    .replace(/[ \t]*\n[ \t]*(?:\*(?!\/)|\/\/|#(?!#))?[ \t]*/g, ' ')
    .trimStart()
    .replace(/^"/, '');
}

/** Whether `rest` starts with one of the headings, as a whole (not a longer word). */
export function citesHeading(rest: string, headings: string[]): boolean {
  return headings.some((h) => rest.startsWith(h) && !/^[\w-]/.test(rest.slice(h.length)));
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

interface Citation {
  at: string;
  target: string;
  rest: string;
}

/** Every `docs/<file>.md § …`, `<file>.md § …` (in docs/) and `README(.md) § …` citation. */
export function citationsIn(source: Source): Citation[] {
  const inDocs = source.file.startsWith('docs/');
  const found: Citation[] = [];
  const re = /(?<![\w./`<-])(docs\/[a-z0-9-]+\.md|[a-z0-9-]+\.md|README(?:\.md)?) §[ \t]*/g;
  for (const m of source.text.matchAll(re)) {
    let target = m[1];
    if (target.startsWith('README')) target = 'README.md';
    else if (!target.startsWith('docs/')) {
      if (!inDocs) continue; // `foo.md § …` outside docs/ names no file of ours
      target = `docs/${target}`;
    }
    const rest = continuation(source.text, m.index + m[0].length);
    // Code that builds a citation from a variable (e.g. an OpenAPI description) names no heading.
    if (rest.startsWith('${')) continue;
    found.push({
      at: `${source.file}:${lineOf(source.text, m.index)}`,
      target,
      rest,
    });
  }
  return found;
}

const FORBIDDEN: [string, RegExp][] = [
  ['the design document by section number', /\bARCHITECTURE(?:\.md)?[\s*/#]*§/g],
  ['the contract by section (cite docs/api.md)', /\b[Cc]ontract[\s*/#]*\(?§/g],
  ['the style guide (not in the repository)', /\bSTYLE(?:\.md)?[\s*/#]*§/g],
  ['a tracker number', /\b[Ii]ssues? #?\d+\b/g],
  ['a tracker number', /(?:^|[\s(])#\d{1,6}\b(?![0-9a-fA-F])/gm],
  ['a file outside the repository', /\/work\/shared|\.\.\/shared\/|workspace-platform-api\.md/g],
];

describe('citations', () => {
  const all = sources();
  const headings = new Map<string, string[]>();
  for (const s of all) {
    if (s.file.endsWith('.md') && (s.file.startsWith('docs/') || s.file === 'README.md')) {
      headings.set(s.file, headingsOf(s.text));
    }
  }

  it('finds the documents and their citations', () => {
    expect(headings.get('docs/architecture.md')).toContain('Two modes');
    expect(headings.get('docs/api.md')).toContain('Errors');
    expect(all.flatMap(citationsIn).length).toBeGreaterThan(300);
  });

  it('every docs/<file>.md § Heading names an existing file and heading', () => {
    const broken = all
      .filter((s) => s.file !== 'test/docs/citations.spec.ts') // its examples
      .flatMap(citationsIn)
      .filter((c) => !citesHeading(c.rest, headings.get(c.target) ?? []))
      .map((c) => `${c.at}: ${c.target} § ${c.rest.slice(0, 60)}`);
    expect(broken).toEqual([]);
  });

  it('cites nothing outside the repository and no tracker numbers', () => {
    const offending: string[] = [];
    for (const s of all) {
      if (s.file === 'test/docs/citations.spec.ts') continue; // the patterns themselves
      for (const [what, re] of FORBIDDEN) {
        for (const m of s.text.matchAll(re)) {
          offending.push(`${s.file}:${lineOf(s.text, m.index)}: ${what}: ${m[0].trim()}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });
});

describe('citation checks', () => {
  it('accepts a heading followed by punctuation or text, not a longer word', () => {
    expect(citesHeading('Two modes).', ['Two modes'])).toBe(true);
    expect(citesHeading('Two modes, and more', ['Two modes'])).toBe(true);
    expect(citesHeading('Two modesty', ['Two modes'])).toBe(false);
    expect(citesHeading('Three modes', ['Two modes'])).toBe(false);
  });

  it('reads a citation across a comment line break', () => {
    const [c] = citationsIn({
      file: 'apps/x.ts',
      text: '/**\n * see docs/architecture.md § Data\n * ownership and events.\n */',
    });
    expect(c).toMatchObject({ target: 'docs/architecture.md', at: 'apps/x.ts:2' });
    expect(citesHeading(c.rest, ['Data ownership and events'])).toBe(true);
  });

  it('resolves a bare file name inside docs/ only', () => {
    expect(citationsIn({ file: 'docs/org.md', text: 'see wallet.md § Ledger' })).toEqual([
      expect.objectContaining({ target: 'docs/wallet.md' }),
    ]);
    expect(citationsIn({ file: 'apps/x.ts', text: '// opentelemetry.md § Spans' })).toEqual([]);
  });

  it('ignores headings inside code fences', () => {
    expect(headingsOf('# A\n```sh\n# not a heading\n```\n## B')).toEqual(['A', 'B']);
  });

  it('knows a heading by its name without a parenthesis or subtitle', () => {
    expect(headingsOf('## Configuration (added here)\n## Pass: agents')).toEqual([
      'Configuration (added here)',
      'Configuration',
      'Pass: agents',
      'Pass',
    ]);
  });
});
