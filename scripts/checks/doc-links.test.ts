import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every document the project cites exists: the relative links of its Markdown files, and the
 * documents named in its code and prose (docs/…, decisions/…, ARCHITECTURE.md). A moved or
 * renamed document, or one cited before it is written, fails here rather than in a reader's hands.
 * The map a newcomer reads first, docs/ARCHITECTURE.md, is followed further: every file or folder
 * it names exists, and every function it names is declared in the file it cites beside it.
 */
const root = path.resolve(import.meta.dirname, '../..');
const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file && fs.existsSync(path.join(root, file)));
const markdown = tracked.filter((file) => file.endsWith('.md'));
const code = tracked.filter((file) => /\.(ts|tsx|js|mjs|cjs|cs|css|json)$/.test(file));

/** `[text](target)` links to a file of the repository (not a web address or an anchor). */
const LINK = /\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
/** A document named by its path: docs/….md, decisions/….md, or the architecture page. */
const CITED = /(?<![\w/.-])((?:docs\/|decisions\/)[\w./-]*\.md|ARCHITECTURE\.md)/g;

function citedPath(cited: string): string {
  if (cited === 'ARCHITECTURE.md') return 'docs/ARCHITECTURE.md';
  if (cited.startsWith('decisions/')) return `docs/${cited}`;
  return cited;
}

interface Citation {
  file: string;
  target: string;
}

function citationsIn(file: string): Citation[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const found: Citation[] = [];
  if (file.endsWith('.md')) {
    for (const [, link] of text.matchAll(LINK)) {
      if (/^([a-z]+:|#|\/)/i.test(link!)) continue;
      const target = decodeURI(link!.split('#')[0]!);
      if (target) found.push({ file, target: path.join(path.dirname(file), target) });
    }
  }
  for (const [, cited] of text.matchAll(CITED)) {
    found.push({ file, target: citedPath(cited!) });
  }
  return found;
}

describe('cited documents', () => {
  it('every link and cited document path leads to a file or folder of the repository', () => {
    const citations = [...markdown, ...code].flatMap(citationsIn);
    expect(citations.length).toBeGreaterThan(20);
    const missing = citations
      .filter(({ target }) => !fs.existsSync(path.join(root, target)))
      .map(({ file, target }) => `${file} → ${target}`);
    expect(missing).toEqual([]);
  });
});

/**
 * Where a path of ARCHITECTURE.md may start: the repository, or the folder its sections speak of
 * (the server's sources, the console's, the contract's). A bare file name (`paging.ts`) names a
 * file of that name in one of them.
 */
const BASES = ['', 'apps/server/src/', 'apps/web/src/', 'packages/contract/src/'];
const ROOTS = /^(apps|packages|tools|sdk|docs|scripts|bench|deploy)(\/|$)/;
const EXTENSION = /\.(ts|tsx|js|mjs|cjs|json|md|sql|cs)$/;
const folders = new Set(
  tracked.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, index, parts) => parts.slice(0, index + 1).join('/')),
  ),
);
const files = new Set(tracked);

/** A backticked name that is a path: a file (by its extension), a folder (`…/`), or a top folder. */
function isPath(code: string): boolean {
  if (/[\s…{}()]/.test(code) || code.startsWith('/')) return false;
  if (!/^[\w.<>*-]+(\/[\w.<>*-]+)*\/?$/.test(code)) return false;
  return EXTENSION.test(code) || code.endsWith('/') || ROOTS.test(code);
}

/** `<domain>` stands for any one folder or name, `*` for any run of characters in a name. */
function pattern(code: string): RegExp {
  const escaped = code
    .replace(/\/$/, '')
    .split(/(<[^>]+>|\*)/)
    .map((part) =>
      part === '*'
        ? '[^/]*'
        : part.startsWith('<')
          ? '[^/]+'
          : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${escaped}$`);
}

/** The repository files (or folders) a cited path names; empty when it names none. */
function resolve(code: string): string[] {
  const wanted = pattern(code);
  const pool = code.endsWith('/') ? folders : new Set([...files, ...folders]);
  if (!code.includes('/')) {
    return [...files].filter((file) => wanted.test(file.split('/').pop()!));
  }
  return [...pool].filter((file) =>
    BASES.some((base) => file.startsWith(base) && wanted.test(file.slice(base.length))),
  );
}

/**
 * A backticked function (or class, or interface): `name`, `name(…)` or `object.method(…)`, called
 * or with a capital inside its name (`recordAudit`, `WithLive`), not a setting (`SMTP_URL`).
 */
const FUNCTION = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\(.*\))?$/s;
const isFunction = (code: string) => {
  const match = FUNCTION.exec(code);
  if (!match) return false;
  return Boolean(match[2]) || /^[A-Za-z][a-z0-9]+[A-Z]/.test(match[1]!);
};

/** Is `name` declared in the file (a function, a constant, a class or a method of it)? */
function declares(file: string, name: string): boolean {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const [first, ...members] = name.split('.');
  const declared = new RegExp(
    `(function\\*?|const|let|var|class|interface|type)\\s+${first}\\b|export\\s*\\{[^}]*\\b${first}\\b|^\\s*(async\\s+)?${first}\\s*[(<]`,
    'm',
  );
  return declared.test(text) && members.every((member) => new RegExp(`\\b${member}\\b`).test(text));
}

/** Every backticked code span of the page, in order, with the text between it and the next. */
function spans(text: string): Array<{ code: string; after: string }> {
  const found: Array<{ code: string; after: string }> = [];
  const all = [...text.matchAll(/`([^`]+)`/g)];
  all.forEach((match, index) => {
    const end = match.index + match[0].length;
    const next = all[index + 1]?.index ?? text.length;
    found.push({ code: match[1]!, after: text.slice(end, next) });
  });
  return found;
}

describe('the architecture page', () => {
  const page = 'docs/ARCHITECTURE.md';
  // Fenced blocks (the diagram) aside; prose wrapped over lines read as one line.
  const text = fs
    .readFileSync(path.join(root, page), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/\s*\n\s*/g, ' ');
  const cited = spans(text);

  it('names only files and folders that exist', () => {
    const paths = cited.filter(({ code }) => isPath(code));
    expect(paths.length).toBeGreaterThan(50);
    const missing = paths.filter(({ code }) => resolve(code).length === 0).map(({ code }) => code);
    expect(missing).toEqual([]);
  });

  it('cites the file of every function it names, and the file declares it', () => {
    // A function is cited with its file next to it: `name` (`file`), `name` in/from `file`, or
    // `file` (`name`), `file`, `name`.
    const wrong: string[] = [];
    cited.forEach(({ code, after }, index) => {
      if (!isFunction(code)) return;
      const name = FUNCTION.exec(code)![1]!;
      const next = cited[index + 1];
      const before = cited[index - 1];
      const file =
        next && /^\s*(\(|in |from )$/.test(after) && isPath(next.code) && EXTENSION.test(next.code)
          ? next.code
          : before &&
              /^\s*(\(|, )$/.test(before.after) &&
              isPath(before.code) &&
              EXTENSION.test(before.code)
            ? before.code
            : undefined;
      if (!file) return wrong.push(`${code}: no file cited beside it`);
      const found = resolve(file);
      if (!found.some((candidate) => declares(candidate, name)))
        wrong.push(`${code}: not in ${file}`);
    });
    expect(wrong).toEqual([]);
  });
});
