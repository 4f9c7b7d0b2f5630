import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as unity from '../unity-meta.mjs';

/**
 * The Unity package installs the way Unity reads it: from a git URL it is immutable, and Unity
 * ignores every asset without a .meta; a scene refers to a script by the GUID in its .meta, so a
 * GUID that changes or is shared breaks every project that uses the package. The fix for a failure
 * here is `node scripts/unity-meta.mjs` (it writes what is missing and pins the new GUIDs).
 */
const assets = unity.assets();
const metas = unity.metas();
const pinned = unity.readManifest();
const guidOf = (metaPath: string) =>
  unity.guidIn(fs.readFileSync(path.join(unity.packageDir, metaPath), 'utf8'));

describe('the Unity package’s .meta files (sdk/unity)', () => {
  it('every file and folder Unity imports has a .meta, samples included', () => {
    expect(assets.length).toBeGreaterThan(20);
    expect(assets.some((asset) => asset.path.startsWith('Samples~/'))).toBe(true);
    const missing = assets
      .filter((asset) => !fs.existsSync(path.join(unity.packageDir, `${asset.path}.meta`)))
      .map((asset) => asset.path);
    expect(missing).toEqual([]);
  });

  it('no .meta is orphaned (its asset gone or ignored by Unity)', () => {
    const known = new Set(assets.map((asset) => `${asset.path}.meta`));
    expect(metas.filter((meta) => !known.has(meta))).toEqual([]);
  });

  it('every .meta has a well-formed GUID, and no two share one', () => {
    const guids = metas.map((meta) => ({ meta, guid: guidOf(meta) }));
    expect(guids.filter(({ guid }) => !guid).map(({ meta }) => meta)).toEqual([]);
    const seen = new Map<string, string>();
    const duplicates: string[] = [];
    for (const { meta, guid } of guids) {
      if (seen.has(guid!)) duplicates.push(`${meta} and ${seen.get(guid!)}`);
      seen.set(guid!, meta);
    }
    expect(duplicates).toEqual([]);
  });

  it('no GUID changed: each matches the one pinned in scripts/checks/unity-guids.json', () => {
    const changed = assets
      .filter((asset) => pinned[asset.path] !== guidOf(`${asset.path}.meta`))
      .map(
        (asset) =>
          `${asset.path}: pinned ${pinned[asset.path]}, .meta ${guidOf(`${asset.path}.meta`)}`,
      );
    expect(changed).toEqual([]);
    const gone = Object.keys(pinned).filter(
      (assetPath) => !assets.some((asset) => asset.path === assetPath),
    );
    expect(
      gone,
      'pinned assets no longer in the package (moved? keep the GUID under the new path)',
    ).toEqual([]);
  });

  it('a folder’s .meta says so, and a script’s is a MonoImporter', () => {
    const wrong = assets.filter((asset) => {
      const text = fs.readFileSync(path.join(unity.packageDir, `${asset.path}.meta`), 'utf8');
      if (asset.folder) return !/^folderAsset: yes$/m.test(text);
      if (asset.path.endsWith('.cs')) return !/^MonoImporter:$/m.test(text);
      return /^folderAsset: yes$/m.test(text);
    });
    expect(wrong.map((asset) => asset.path)).toEqual([]);
  });

  it('the pinned GUIDs of the package’s first release are those committed (never derived again)', () => {
    // A pin that a later edit of the generator could not move: the runtime assembly and the behaviour.
    expect(pinned['Runtime/Vrtc.Headset.asmdef']).toBe(
      unity.guidFor('Runtime/Vrtc.Headset.asmdef'),
    );
    expect(pinned['Runtime/Unity/HeadsetBehaviour.cs']).toBe('fbf29ad30f31fb58b9f1d6d033e0dd31');
  });
});

describe('the Unity package’s release', () => {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(unity.packageDir, 'package.json'), 'utf8'),
  ) as { version: string; license: string };

  it('its version has a CHANGELOG entry, and the README installs that version’s tag', () => {
    const changelog = fs.readFileSync(path.join(unity.packageDir, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(new RegExp(`^## ${manifest.version.replaceAll('.', '\\.')}\\b`, 'm'));
    const readme = fs.readFileSync(path.join(unity.packageDir, 'README.md'), 'utf8');
    expect(readme).toContain(`?path=sdk/unity#sdk-unity-v${manifest.version}`);
  });
});
