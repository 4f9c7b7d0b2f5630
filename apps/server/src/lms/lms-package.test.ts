import fs from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { manifest, scormPackage, type PackageContent } from './scorm-package.ts';

/**
 * The manifests validate against the SCORM schemas shipped with the tests
 * (test/fixtures/scorm-xsd: SCORM 1.2 and SCORM 2004 4th edition, as ADL publishes them), with
 * libxml2's validator (xmllint-wasm): no network.
 */
const XSD_ROOT = path.resolve(import.meta.dirname, '../../test/fixtures/scorm-xsd');

/** Every namespace the manifest uses, imported by one schema: xmllint takes one. */
const WRAPPERS = {
  '1.2': {
    dir: 'scorm12edition',
    imports: {
      'http://www.imsproject.org/xsd/imscp_rootv1p1p2': 'imscp_rootv1p1p2.xsd',
      'http://www.adlnet.org/xsd/adlcp_rootv1p2': 'adlcp_rootv1p2.xsd',
    },
  },
  '2004': {
    dir: 'scorm20044thedition',
    imports: {
      'http://www.imsglobal.org/xsd/imscp_v1p1': 'imscp_v1p1.xsd',
      'http://www.adlnet.org/xsd/adlcp_v1p3': 'adlcp_v1p3.xsd',
      'http://www.adlnet.org/xsd/adlseq_v1p3': 'adlseq_v1p3.xsd',
      'http://www.adlnet.org/xsd/adlnav_v1p3': 'adlnav_v1p3.xsd',
      'http://www.imsglobal.org/xsd/imsss': 'imsss_v1p0.xsd',
    },
  },
} as const;

async function validate(version: '1.2' | '2004', xml: string) {
  const { dir, imports } = WRAPPERS[version];
  const folder = path.join(XSD_ROOT, dir);
  const wrapper = `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:vrtc:scorm-check">
${Object.entries(imports)
  .map(([ns, file]) => `  <xs:import namespace="${ns}" schemaLocation="${file}"/>`)
  .join('\n')}
</xs:schema>`;
  return validateXML({
    xml: [{ fileName: 'imsmanifest.xml', contents: xml }],
    schema: [{ fileName: 'check.xsd', contents: wrapper }],
    preload: fs.readdirSync(folder).map((file) => ({
      fileName: file,
      contents: fs.readFileSync(path.join(folder, file), 'utf8'),
    })),
  });
}

const content = (version: '1.2' | '2004'): PackageContent => ({
  version,
  id: '5f0c1d7e-0000-4000-8000-000000000001',
  title: { ru: 'Пожар <на складе> & «эвакуация»', en: 'Warehouse fire' },
  masteryScore: 80,
  consoleUrl: 'https://console.example.com',
  packageKey: 'vrtc_lms_test',
  defaultLanguage: 'ru',
});

describe('imsmanifest.xml', () => {
  for (const version of ['1.2', '2004'] as const) {
    it(`validates against the SCORM ${version} schemas`, async () => {
      const result = await validate(version, manifest(content(version)));
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
    });
  }

  it('is refused by the schemas when broken (the check checks)', async () => {
    const broken = manifest(content('1.2'))
      .replace('<resources>', '<resourcez>')
      .replace('</resources>', '</resourcez>');
    expect((await validate('1.2', broken)).valid).toBe(false);
  });

  it('carries both titles, escaped, and the mastery score', () => {
    const xml12 = manifest(content('1.2'));
    expect(xml12).toContain(
      '<title>Пожар &lt;на складе&gt; &amp; «эвакуация» / Warehouse fire</title>',
    );
    expect(xml12).toContain('<adlcp:masteryscore>80</adlcp:masteryscore>');
    expect(manifest(content('2004'))).toContain(
      '<imsss:minNormalizedMeasure>0.80</imsss:minNormalizedMeasure>',
    );
  });
});

describe('the package', () => {
  it('holds the launch page and a config that no title can break out of', () => {
    const files = unzipSync(
      scormPackage({ ...content('2004'), title: { ru: '</script><b>', en: null } }),
    );
    const config = strFromU8(files['config.js']!);
    expect(config).not.toContain('</script>');
    expect(config).toContain('"consoleUrl": "https://console.example.com"');
    expect(strFromU8(files['index.html']!)).toContain('<script src="launch.js"></script>');
  });
});
