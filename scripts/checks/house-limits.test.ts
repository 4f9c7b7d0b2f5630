import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The sizes the house keeps, so a room stays one a newcomer reads in one sitting: no server file
 * over 450 lines (migrations and the schema's table definitions aside), nor any file of the headset
 * simulator (split like the SDK: transport, delivery, push, play, the facade), no server function
 * over 80 lines, no console component over 200 lines, and every `eslint-disable` says why
 * (`// eslint-disable-next-line rule -- why`). The server's infrastructure (`platform/`) stays at
 * most a quarter of its code: what a domain owns lives in the domain.
 */
const root = path.resolve(import.meta.dirname, '../..');
const SERVER_FILE_LINES = 450;
const SERVER_FUNCTION_LINES = 80;
const COMPONENT_LINES = 200;
const PLATFORM_SHARE = 0.25;

/** The repository's tracked files (what a clone holds), filtered. */
function tracked(pattern: RegExp): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
  return files.filter((file) => pattern.test(file) && fs.existsSync(path.join(root, file)));
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file) || /(^|\/)(test|e2e)\//.test(file);
const serverSources = () =>
  tracked(/^apps\/server\/src\/.*\.ts$/).filter(
    (file) => !isTest(file) && !file.endsWith('/database/schema.ts'),
  );
const simulatorSources = () => tracked(/^tools\/headset-sim\/src\/.*\.ts$/);
const consoleSources = () => tracked(/^apps\/web\/src\/.*\.tsx$/).filter((file) => !isTest(file));

const linesOf = (file: string) => fs.readFileSync(path.join(root, file), 'utf8').split('\n').length;

/** The files over the line limit, each with its length. */
function longFiles(files: string[]): string[] {
  return files
    .map((file) => ({ file, lines: linesOf(file) }))
    .filter(({ lines }) => lines > SERVER_FILE_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
}

function parse(file: string): ts.SourceFile {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

interface Measured {
  name: string;
  lines: number;
}

/** Every function of a file with its length in lines, named as a reader would find it. */
function functionsOf(source: ts.SourceFile): Measured[] {
  const found: Measured[] = [];
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
      found.push({ name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (named.name) return named.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText()})`;
  const line = node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1;
  return `(function at line ${line})`;
}

/** A console component: a function whose name starts with a capital letter, in a .tsx file. */
const isComponent = (measured: Measured) => /^[A-Z]/.test(measured.name);

describe('the house keeps its sizes', () => {
  it(`no server file is longer than ${SERVER_FILE_LINES} lines`, () => {
    const long = longFiles(serverSources().filter((file) => !file.includes('/migrations/')));
    expect(long).toEqual([]);
  });

  it(`platform/ holds at most ${PLATFORM_SHARE * 100}% of the server's code`, () => {
    const files = serverSources().filter((file) => !file.includes('/migrations/'));
    const sum = (some: string[]) => some.reduce((total, file) => total + linesOf(file), 0);
    const platform = sum(files.filter((file) => file.startsWith('apps/server/src/platform/')));
    expect(platform).toBeGreaterThan(0);
    expect(platform / sum(files)).toBeLessThanOrEqual(PLATFORM_SHARE);
  });

  it(`no file of the headset simulator is longer than ${SERVER_FILE_LINES} lines`, () => {
    expect(simulatorSources().length).toBeGreaterThan(0);
    expect(longFiles(simulatorSources())).toEqual([]);
  });

  it(`no server function is longer than ${SERVER_FUNCTION_LINES} lines`, () => {
    const long = serverSources().flatMap((file) =>
      functionsOf(parse(file))
        .filter(({ lines }) => lines > SERVER_FUNCTION_LINES)
        .map(({ name, lines }) => `${file}: ${name} ${lines} lines`),
    );
    expect(long).toEqual([]);
  });

  it(`no console component is longer than ${COMPONENT_LINES} lines`, () => {
    const long = consoleSources().flatMap((file) =>
      functionsOf(parse(file))
        .filter((measured) => isComponent(measured) && measured.lines > COMPONENT_LINES)
        .map(({ name, lines }) => `${file}: ${name} ${lines} lines`),
    );
    expect(long).toEqual([]);
  });

  it('every eslint-disable says why', () => {
    const sources = tracked(
      /^(apps|packages|tools|bench|scripts)\/.*\.(ts|tsx|mts|mjs|js)$/,
    ).filter(
      (file) =>
        !file.includes('node_modules/') && file !== path.relative(root, import.meta.filename),
    );
    const bare = sources.flatMap((file) =>
      fs
        .readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /eslint-disable/.test(line) && !/eslint-disable[^\n]*\s--\s+\S/.test(line)
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(bare).toEqual([]);
  });
});
