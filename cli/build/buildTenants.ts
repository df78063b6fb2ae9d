import { copyFile, mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { enabledFeatures } from '../../engine/features';
import type { ResolvedTenant } from '../tenant';
import { buildEngine, filesForTenant } from './engineBuild';
import { renderTenantHtml } from './renderTenantHtml';
import { tenantPageInput } from './tenantPage';

export interface TenantBuildReport {
  tenant: string;
  files: number;
  bytes: number;
  gzipBytes: number;
  jsGzipBytes: number;
}

/**
 * `portal build`: one engine build shared by all tenants, then `dist/<tenant>/` per tenant with
 * its config and theme inlined and only the chunks its enabled features need.
 */
export async function buildTenants(
  tenants: readonly ResolvedTenant[],
  options: { distDir: string; engineDir: string; progress?: (message: string) => void },
): Promise<TenantBuildReport[]> {
  const progress = options.progress ?? (() => undefined);
  progress(`building the engine once for ${tenants.length} tenant(s) …`);
  const { manifest, template } = await buildEngine(options.engineDir);
  const reports: TenantBuildReport[] = [];
  for (const tenant of tenants) {
    progress(`writing dist/${tenant.id}/ …`);
    const enabled = new Set(enabledFeatures(tenant.features).map((feature) => feature.id));
    const files = filesForTenant(manifest, enabled);
    const outDir = path.join(options.distDir, tenant.id);
    await rm(outDir, { recursive: true, force: true });
    await mkdir(path.join(outDir, 'assets'), { recursive: true });
    let bytes = 0;
    let gzipBytes = 0;
    let jsGzipBytes = 0;
    for (const file of files) {
      await mkdir(path.dirname(path.join(outDir, file)), { recursive: true });
      await copyFile(path.join(options.engineDir, file), path.join(outDir, file));
      const content = await readFile(path.join(outDir, file));
      const gz = gzipSync(content).length;
      bytes += content.length;
      gzipBytes += gz;
      if (file.endsWith('.js')) jsGzipBytes += gz;
    }
    const html = renderTenantHtml(template, tenantPageInput(tenant));
    await writeFile(path.join(outDir, 'index.html'), html);
    bytes += Buffer.byteLength(html);
    gzipBytes += gzipSync(html).length;
    await writeFile(
      path.join(outDir, 'portal-build.json'),
      JSON.stringify({ tenant: tenant.id, features: [...enabled], files: [...files].sort() }, null, 2),
    );
    reports.push({ tenant: tenant.id, files: files.size + 1, bytes, gzipBytes, jsGzipBytes });
  }
  return reports;
}

export function formatBuildTable(reports: readonly TenantBuildReport[]): string {
  const kb = (value: number) => `${(value / 1024).toFixed(1)} KB`;
  const rows = [['tenant', 'files', 'size', 'gzipped', 'js gzipped'], ...reports.map((r) => [r.tenant, String(r.files), kb(r.bytes), kb(r.gzipBytes), kb(r.jsGzipBytes)])];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')).join('\n');
}
