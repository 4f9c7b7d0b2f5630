// The Unity package's .meta files (sdk/unity): Unity reads a package added from a git URL as
// immutable and ignores every asset without a .meta beside it, and a scene refers to a script by
// the GUID in that .meta, so the GUIDs must be committed and never change.
//
// `node scripts/unity-meta.mjs` writes a .meta for every file and folder that lacks one, with a
// GUID derived from its path (so two checkouts that run it agree), and pins every GUID in
// scripts/checks/unity-guids.json. The repository check (scripts/checks/unity-meta.test.ts) fails
// on a missing, orphaned or duplicate .meta and on a GUID that differs from the pinned one.
// Renaming or moving an asset: move its .meta with it (git mv both) and update the path in
// unity-guids.json, keeping the GUID, or every scene that uses it loses the reference.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const packageDir = path.join(root, 'sdk/unity');
export const manifestPath = path.join(root, 'scripts/checks/unity-guids.json');

/**
 * What Unity skips when it imports a folder: hidden names (a leading dot), names ending in `~`
 * (Samples~, Documentation~ — no .meta of their own, but their contents are copied into Assets/
 * when a sample is imported, so they carry .meta files), `cvs` and `*.tmp`.
 */
export function ignoredByUnity(name) {
  return (
    name.startsWith('.') ||
    name.endsWith('~') ||
    name.toLowerCase() === 'cvs' ||
    name.endsWith('.tmp')
  );
}

/** Every asset of the package (package-relative, `/`-separated) that needs a .meta. */
export function assets() {
  const found = [];
  const walk = (relative) => {
    for (const entry of fs.readdirSync(path.join(packageDir, relative), { withFileTypes: true })) {
      if (entry.name.endsWith('.meta')) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      // A `~` folder is not an asset, but the samples inside it are.
      if (entry.isDirectory() && entry.name.endsWith('~') && !entry.name.startsWith('.')) {
        walk(child);
        continue;
      }
      if (ignoredByUnity(entry.name)) continue;
      found.push({ path: child, folder: entry.isDirectory() });
      if (entry.isDirectory()) walk(child);
    }
  };
  walk('');
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every .meta file of the package (package-relative). */
export function metas() {
  const found = [];
  const walk = (relative) => {
    for (const entry of fs.readdirSync(path.join(packageDir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.meta')) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

/** The GUID a new asset gets: 32 hex digits from its path, the same on every machine. */
export function guidFor(assetPath) {
  return crypto.createHash('md5').update(`com.vrtc.headset/${assetPath}`).digest('hex');
}

/** The GUID written in a .meta file, or undefined. */
export function guidIn(metaText) {
  return /^guid: ([0-9a-f]{32})\s*$/m.exec(metaText)?.[1];
}

const importerSettings =
  '  externalObjects: {}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n';

/** The .meta Unity itself would write for the asset (the importer follows the extension). */
export function metaText(asset, guid) {
  const head = `fileFormatVersion: 2\nguid: ${guid}\n`;
  if (asset.folder) return `${head}folderAsset: yes\nDefaultImporter:\n${importerSettings}`;
  const extension = path.extname(asset.path).toLowerCase();
  if (extension === '.cs')
    return (
      `${head}MonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  defaultReferences: []\n` +
      '  executionOrder: 0\n  icon: {instanceID: 0}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n'
    );
  if (extension === '.asmdef') return `${head}AssemblyDefinitionImporter:\n${importerSettings}`;
  if (['.md', '.json', '.txt', '.xml', '.bytes', '.csv', '.yaml'].includes(extension))
    return `${head}TextScriptImporter:\n${importerSettings}`;
  return `${head}DefaultImporter:\n${importerSettings}`;
}

export function readManifest() {
  return fs.existsSync(manifestPath) ? JSON.parse(fs.readFileSync(manifestPath, 'utf8')) : {};
}

function write() {
  const manifest = readManifest();
  let written = 0;
  for (const asset of assets()) {
    const metaPath = path.join(packageDir, `${asset.path}.meta`);
    if (!fs.existsSync(metaPath)) {
      const guid = manifest[asset.path] ?? guidFor(asset.path);
      fs.writeFileSync(metaPath, metaText(asset, guid));
      written++;
    }
    manifest[asset.path] = guidIn(fs.readFileSync(metaPath, 'utf8'));
  }
  const sorted = Object.fromEntries(
    Object.entries(manifest)
      .filter(([assetPath]) => fs.existsSync(path.join(packageDir, assetPath)))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  fs.writeFileSync(manifestPath, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(
    `${written} .meta file(s) written; ${Object.keys(sorted).length} GUIDs pinned in ${path.relative(root, manifestPath)}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) write();
