/**
 * Validators no one here wrote, for the e-invoices: xmllint checks the XML against the
 * official UN/CEFACT CII D16B XSD, Saxon HE runs the EN 16931 schematron (CEN/TC 434's rules,
 * compiled to XSLT by ConnectingEurope/eInvoicing-EN16931), qpdf checks the PDF's structure and
 * pdfdetach (poppler) lists and extracts its attachments. The artefacts are copies from
 * ConnectingEurope/eInvoicing-EN16931 (tests/fixtures/einvoice/README.md); the programs are Debian
 * packages (.ci/run installs them). Outside CI a missing program skips the checks with a message;
 * in CI (`CI=true`) it fails them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../../fixtures/einvoice/', import.meta.url));
export const CII_XSD = path.join(FIXTURES, 'cii-d16b', 'CrossIndustryInvoice_100pD16B.xsd');
export const EN16931_CII_XSLT = path.join(FIXTURES, 'en16931-cii', 'EN16931-CII-validation.xslt');
/** Debian's libsaxonhe-java. */
export const SAXON_JAR = '/usr/share/java/Saxon-HE.jar';

function onPath(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).status === 0;
}

/** The validator programs this machine lacks, with the Debian package that brings each. */
export function missingValidators(): string[] {
  const missing: string[] = [];
  if (!onPath('xmllint')) missing.push('xmllint (Debian package libxml2-utils)');
  if (!onPath('java') || !existsSync(SAXON_JAR)) missing.push('Saxon HE (Debian package libsaxonhe-java)');
  if (!onPath('qpdf')) missing.push('qpdf (Debian package qpdf)');
  if (!onPath('pdfdetach')) missing.push('pdfdetach (Debian package poppler-utils)');
  return missing;
}

function run(program: string, args: string[]): { status: number; output: string } {
  const result = spawnSync(program, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status ?? -1, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** xmllint --schema on the files: the output names every file that does not validate. */
export function xsdCheck(files: string[]): { ok: boolean; output: string } {
  const { status, output } = run('xmllint', ['--noout', '--schema', CII_XSD, ...files]);
  return { ok: status === 0, output };
}

export interface SchematronFinding {
  id: string;
  flag: string;
  text: string;
  location: string;
}

/**
 * The EN 16931 schematron over every XML file of `dir`, in one Saxon run (the stylesheet is
 * compiled once): the failed asserts of each file by its name.
 */
export function schematron(dir: string, outDir: string): Record<string, SchematronFinding[]> {
  mkdirSync(outDir, { recursive: true });
  const { status, output } = run('java', [
    '-cp',
    SAXON_JAR,
    'net.sf.saxon.Transform',
    `-s:${dir}`,
    `-xsl:${EN16931_CII_XSLT}`,
    `-o:${outDir}`,
  ]);
  if (status !== 0) throw new Error(`Saxon failed: ${output}`);
  const findings: Record<string, SchematronFinding[]> = {};
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.xml'))) {
    const svrl = readFileSync(path.join(outDir, file), 'utf8');
    const failed = [...svrl.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)];
    findings[file] = failed.map(([, attributes, body]) => {
      const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1] ?? '';
      return {
        id: attribute('id'),
        flag: attribute('flag'),
        location: attribute('location'),
        text: /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(body)?.[1]?.trim() ?? '',
      };
    });
  }
  return findings;
}

/** qpdf --check: exit 0 (2 would be errors, 3 warnings). */
export function qpdfCheck(pdf: string): { ok: boolean; output: string } {
  const { status, output } = run('qpdf', ['--check', pdf]);
  return { ok: status === 0, output };
}

/** The PDF with object streams written out, so its dictionaries and XMP can be searched as text. */
export function qdfText(pdf: string, out: string): string {
  const { status, output } = run('qpdf', ['--qdf', '--object-streams=disable', pdf, out]);
  if (status !== 0 && status !== 3) throw new Error(`qpdf --qdf failed: ${output}`);
  return readFileSync(out, 'latin1');
}

/** pdfdetach -list: the names of the embedded files. */
export function attachmentNames(pdf: string): string[] {
  const { status, output } = run('pdfdetach', ['-list', pdf]);
  if (status !== 0) throw new Error(`pdfdetach -list failed: ${output}`);
  return output
    .split('\n')
    .map((line) => /^\s*\d+:\s*(.+?)\s*$/.exec(line)?.[1])
    .filter((name): name is string => Boolean(name));
}

/**
 * pdfdetach -save: one embedded file, by name, written to `out`. By its number in the list:
 * poppler 22's `-savefile` compares names in another encoding and answers "Invalid file name".
 */
export function extractAttachment(pdf: string, name: string, out: string): string {
  const index = attachmentNames(pdf).indexOf(name);
  if (index < 0) throw new Error(`${pdf} has no attachment ${name}`);
  const { status, output } = run('pdfdetach', ['-save', String(index + 1), '-o', out, pdf]);
  if (status !== 0) throw new Error(`pdfdetach -save failed: ${output}`);
  return readFileSync(out, 'utf8');
}
