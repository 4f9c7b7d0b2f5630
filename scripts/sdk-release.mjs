// `npm run release:sdk`: tags a release of the Unity package (sdk/unity) as `sdk-unity-vX.Y.Z`,
// the tag the README's git URL pins (`?path=sdk/unity#sdk-unity-vX.Y.Z`). A tag of a git
// repository is what Unity's Package Manager fetches; nothing is published anywhere else.
//
// Before it tags, it checks what a Unity project would trip over: a clean work tree, the version
// in sdk/unity/package.json with its own heading in CHANGELOG.md, every asset with its committed
// .meta (scripts/checks/unity-meta.test.ts), and no tag of that version yet. It creates an
// annotated tag locally and prints the push command; pushing stays a person's decision.
// `npm run release:sdk -- --dry-run` makes every check and says which tag it would create, and
// where, without creating it (tags are shared by every worktree of the repository).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dryRun = process.argv.includes('--dry-run');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
function fail(message) {
  console.error(`release:sdk: ${message}`);
  process.exit(1);
}

const { version } = JSON.parse(fs.readFileSync(path.join(root, 'sdk/unity/package.json'), 'utf8'));
const tag = `sdk-unity-v${version}`;
if (git('status', '--porcelain')) fail('the work tree has uncommitted changes; commit them first');
const changelog = fs.readFileSync(path.join(root, 'sdk/unity/CHANGELOG.md'), 'utf8');
if (!new RegExp(`^## ${version.replaceAll('.', '\\.')}\\b`, 'm').test(changelog))
  fail(`sdk/unity/CHANGELOG.md has no "## ${version}" heading`);
if (git('tag', '--list', tag))
  fail(`${tag} exists already; raise the version in sdk/unity/package.json`);
const check = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '-c',
    'vitest.repo.config.ts',
    'scripts/checks/unity-meta.test.ts',
  ],
  { cwd: root, stdio: 'inherit' },
);
if (check.status !== 0)
  fail('the .meta check failed: run `node scripts/unity-meta.mjs` and commit');
const at = `${git('rev-parse', '--short', 'HEAD')} (${git('rev-parse', '--abbrev-ref', 'HEAD')})`;
if (dryRun) {
  console.log(`release:sdk --dry-run: every check passed; would tag ${tag} at ${at}`);
  process.exit(0);
}
git('tag', '-a', tag, '-m', `Unity headset SDK ${version}`);
console.log(`tagged ${tag} at ${at}; publish it with:\n  git push origin ${tag}`);
