import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository is under the Apache License 2.0, every package of it says so (npm and Unity
 * read the "license" field), and the Unity package carries the full text it is distributed with.
 */
const root = path.resolve(import.meta.dirname, '../..');
const manifests = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*package.json'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file && !file.includes('node_modules') && fs.existsSync(path.join(root, file)));

describe('licence', () => {
  it('LICENSE at the root and in the Unity package is the Apache License 2.0', () => {
    for (const file of ['LICENSE', 'sdk/unity/LICENSE']) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      expect(text, file).toContain('Apache License');
      expect(text, file).toContain('Version 2.0, January 2004');
      expect(text, file).toContain('END OF TERMS AND CONDITIONS');
    }
  });

  it('every package.json says "license": "Apache-2.0"', () => {
    expect(manifests).toContain('sdk/unity/package.json');
    const other = manifests.filter(
      (file) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')).license !== 'Apache-2.0',
    );
    expect(other).toEqual([]);
  });
});
