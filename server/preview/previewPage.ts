import type { RequestHandler } from 'express';
import { enabledFeatures, FEATURES } from '../../engine/features';
import type { TenantDirectory } from '../tenancy/tenantResolver';

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * /preview — the QA page: several tenants side by side at the same route and viewport width,
 * each with the portal features the registry (engine/features/index.ts) turns on for it and its
 * feature flags, so differences show at a glance; the same list the shell and the build read.
 * Query: tenants=a,b (default all), route=/orders, width=360, lang=de|en.
 */
export function previewPage(directory: TenantDirectory): RequestHandler {
  return (req, res) => {
    const query = req.query as Record<string, string | undefined>;
    const all = directory.all();
    const chosen = (query.tenants ?? '').split(',').filter((id) => directory.get(id));
    const tenants = chosen.length ? chosen.map((id) => directory.get(id)!) : all;
    const route = typeof query.route === 'string' && query.route.startsWith('/') ? query.route : '/orders';
    const width = Math.min(1920, Math.max(280, Number(query.width) || 360));
    const lang = query.lang === 'de' || query.lang === 'en' ? query.lang : '';
    const separator = route.includes('?') ? '&' : '?';
    const frames = tenants
      .map((tenant) => {
        const src = `/t/${tenant.id}${route}${lang ? `${separator}lang=${lang}` : ''}`;
        const on = new Set(enabledFeatures(tenant.features).map((feature) => feature.id));
        const features = FEATURES.map((feature) => `<li class="${on.has(feature.id) ? 'on' : 'off'}">${on.has(feature.id) ? '✓' : '✗'} ${escape(feature.id)}</li>`).join('');
        const flags = tenant.features.map((flag) => `<li>${escape(flag)}</li>`).join('');
        return `<section class="tenant"><h2>${escape(tenant.name)} <small>${escape(tenant.id)}</small></h2>
<iframe title="${escape(tenant.name)} at ${escape(route)}" src="${escape(src)}" style="width:${width}px"></iframe>
<details><summary>${on.size} of ${FEATURES.length} features</summary><ul class="flags">${features}</ul></details>
<details><summary>${tenant.features.length} flag(s)</summary><ul class="flags">${flags}</ul></details></section>`;
      })
      .join('\n');
    const checkboxes = all
      .map((tenant) => `<label><input type="checkbox" name="t" value="${escape(tenant.id)}" ${tenants.includes(tenant) ? 'checked' : ''}> ${escape(tenant.id)}</label>`)
      .join(' ');
    res.type('html').send(`<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Tenant preview</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem}form{display:flex;flex-wrap:wrap;gap:1rem;align-items:end;margin-bottom:1rem}
.row{display:flex;gap:1.5rem;overflow-x:auto;align-items:flex-start}.tenant h2{font-size:1rem;margin:.25rem 0}.tenant small{color:#555}
iframe{height:760px;border:1px solid #999;border-radius:6px;background:#fff}.flags{columns:2;font-size:.8rem;max-width:${width}px}.off{color:#767676}</style></head>
<body><h1>Tenant preview</h1>
<form method="get" onsubmit="var f=this;f.tenants.value=[...f.querySelectorAll('input[name=t]:checked')].map(function(i){return i.value}).join(',')">
<label>Route <input name="route" value="${escape(route)}"></label>
<label>Width <select name="width">${[360, 768, 1280].map((w) => `<option ${w === width ? 'selected' : ''}>${w}</option>`).join('')}</select></label>
<label>Language <select name="lang"><option value="">tenant default</option><option value="de" ${lang === 'de' ? 'selected' : ''}>de</option><option value="en" ${lang === 'en' ? 'selected' : ''}>en</option></select></label>
<fieldset><legend>Tenants</legend>${checkboxes}</fieldset><input type="hidden" name="tenants"><button>Show</button></form>
<div class="row">${frames}</div></body></html>`);
  };
}
