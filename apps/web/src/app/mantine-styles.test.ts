import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '..');
const stylesDir = path.resolve(src, '../../../node_modules/@mantine/core/styles');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("Mantine's styles, component by component (app/mantine-styles.ts)", () => {
  it('holds the stylesheet of every Mantine component the console renders', () => {
    const listed = new Set(
      [
        ...fs
          .readFileSync(path.join(src, 'app/mantine-styles.ts'), 'utf8')
          .matchAll(/@mantine\/core\/styles\/([\w-]+)\.css/g),
      ].map((match) => match[1]),
    );
    const used = new Set<string>();
    for (const file of sourceFiles(src)) {
      const code = fs.readFileSync(file, 'utf8');
      for (const match of code.matchAll(/import\s*{([^}]*)}\s*from\s*'@mantine\/core'/g)) {
        for (const name of match[1]!.split(',')) {
          const component = name
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!;
          if (fs.existsSync(path.join(stylesDir, `${component}.css`))) used.add(component);
        }
      }
    }
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((component) => !listed.has(component)).sort()).toEqual([]);
  });

  it('lists the stylesheets in the order of Mantine’s whole one, the base first', () => {
    const order = fs.readFileSync(path.resolve(stylesDir, '../styles.css'), 'utf8');
    const listed = [
      ...fs
        .readFileSync(path.join(src, 'app/mantine-styles.ts'), 'utf8')
        .matchAll(/@mantine\/core\/styles\/([\w-]+)\.css/g),
    ].map((match) => match[1]!);
    expect(listed.slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
    const offsets = listed.map((name) => {
      const head = fs
        .readFileSync(path.join(stylesDir, `${name}.css`), 'utf8')
        .trim()
        .slice(0, 120);
      return order.indexOf(head);
    });
    expect(offsets.every((offset) => offset >= 0)).toBe(true);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });
});
