import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import type { ScormVersion } from '@vrtc/contract';

/**
 * A SCORM package (docs/lms.md, decision 030): one SCO, the launch page, its script and style,
 * and config.js carrying the console's address and the package key. Nothing is fetched from
 * elsewhere; the manifest validates against the SCORM 1.2 and 2004 4th edition schemas
 * (lms-package.test.ts).
 */

export interface PackageContent {
  version: ScormVersion;
  /** Package key id: the manifest's identifiers stay unique per export. */
  id: string;
  title: { ru: string; en: string | null };
  /** Per cent of the level's tasks the LMS records as mastery (informative: see docs/lms.md). */
  masteryScore: number;
  consoleUrl: string;
  packageKey: string;
  defaultLanguage: 'ru' | 'en';
}

export const MASTERY_SCORE = 80;

const PAGE_DIR = new URL('./launch-page/', import.meta.url);
const PAGE_FILES = ['index.html', 'launch.js', 'launch.css'] as const;
const pageFiles = new Map<string, string>();

function pageFile(name: string): string {
  let text = pageFiles.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(name, PAGE_DIR), 'utf8');
    pageFiles.set(name, text);
  }
  return text;
}

/** The zip's bytes. */
export function scormPackage(content: PackageContent): Uint8Array {
  const files: Record<string, Uint8Array> = {
    'imsmanifest.xml': strToU8(manifest(content)),
    'config.js': strToU8(configScript(content)),
  };
  for (const name of PAGE_FILES) files[name] = strToU8(pageFile(name));
  return zipSync(files, { level: 6, mtime: new Date('2026-01-01T00:00:00Z') });
}

/** Both languages in one title where the format has one title (SCORM's `<title>`). */
export function packageTitle(title: PackageContent['title']): string {
  return title.en && title.en !== title.ru ? `${title.ru} / ${title.en}` : title.ru;
}

function configScript(content: PackageContent): string {
  const config = {
    consoleUrl: content.consoleUrl,
    packageKey: content.packageKey,
    scormVersion: content.version,
    defaultLanguage: content.defaultLanguage,
    title: { ru: content.title.ru, en: content.title.en ?? content.title.ru },
  };
  // JSON inside a script: `<` escaped so no title can close the element.
  return `window.VRTC_LMS = ${JSON.stringify(config, null, 2).replace(/</g, '\\u003c')};\n`;
}

export function xmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const fileList = () =>
  ['index.html', 'launch.js', 'launch.css', 'config.js']
    .map((name) => `      <file href="${name}"/>`)
    .join('\n');

export function manifest(content: PackageContent): string {
  return content.version === '1.2' ? manifest12(content) : manifest2004(content);
}

function manifest12(content: PackageContent): string {
  const title = xmlEscape(packageTitle(content.title));
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="vrtc-${content.id}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="org">
    <organization identifier="org">
      <title>${title}</title>
      <item identifier="item" identifierref="sco" isvisible="true">
        <title>${title}</title>
        <adlcp:masteryscore>${content.masteryScore}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco" type="webcontent" adlcp:scormtype="sco" href="index.html">
${fileList()}
    </resource>
  </resources>
</manifest>
`;
}

/**
 * SCORM 2004 4th edition. The mastery score is the primary objective's minimum measure; it does
 * not decide satisfaction (satisfiedByMeasure false): the headset's verdict, which the launch
 * page writes as cmi.success_status, does.
 */
function manifest2004(content: PackageContent): string {
  const title = xmlEscape(packageTitle(content.title));
  const measure = (content.masteryScore / 100).toFixed(2);
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="vrtc-${content.id}" version="1.0"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="org">
    <organization identifier="org">
      <title>${title}</title>
      <item identifier="item" identifierref="sco" isvisible="true">
        <title>${title}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="mastery" satisfiedByMeasure="false">
              <imsss:minNormalizedMeasure>${measure}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco" type="webcontent" adlcp:scormType="sco" href="index.html">
${fileList()}
    </resource>
  </resources>
</manifest>
`;
}
