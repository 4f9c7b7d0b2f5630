// Types of scripts/unity-meta.mjs, for the repository check that imports it.
export interface UnityAsset {
  path: string;
  folder: boolean;
}
export const root: string;
export const packageDir: string;
export const manifestPath: string;
export function ignoredByUnity(name: string): boolean;
export function assets(): UnityAsset[];
export function metas(): string[];
export function guidFor(assetPath: string): string;
export function guidIn(metaText: string): string | undefined;
export function metaText(asset: UnityAsset, guid: string): string;
export function readManifest(): Record<string, string>;
