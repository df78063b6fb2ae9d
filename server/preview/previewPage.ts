import type { RequestHandler } from 'express';
import { enabledCatalogFeatures } from '../../engine/domain/featureCatalog';
import { featureCatalog } from '../../tenant/featureCatalog';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { TenantDirectory } from '../tenancy/tenantResolver';
import { isAnonymousScreen, previewScreens, type PreviewScreen } from './previewScreens';
import { previewLoginsOf } from './previewLogins';

const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The widths QA usually compares (a phone, a tablet, a desktop); any other is "custom". */
export const PREVIEW_WIDTHS = [360, 768, 1280] as const;
export const DEFAULT_PREVIEW_ROUTE = 'orders';

/** What the page shows, read from its query (everything a link to the page can pin). */
export interface PreviewState {
  tenants: ServerTenant[];
  /** A route id of the registry, or a custom in-portal path (`/faq?x=1`). */
  route: { screen?: PreviewScreen; path: string };
  width: number;
  lang: '' | 'de' | 'en';
  /** Demo login per tenant id; a tenant not listed is shown signed out. */
  users: Map<string, string>;
  /** The database holds demo data in every tenant (`portal preview`): see previewLoginsOf. */
  demoDataInEveryTenant: boolean;
  sync: boolean;
}

const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * Query: tenants=a,b (or t=a&t=b; default all), route=<route id>|/<path>, width=360|768|1280|custom
 * with customWidth=<px>, lang=de|en, user=<email> (every tenant that has that demo login),
 * user.<tenant>=<email>|'' (one frame; empty = signed out), sync=0 starts with synced scrolling off.
 */
export function previewState(
  query: Record<string, unknown>,
  directory: TenantDirectory,
  demoDataInEveryTenant = false,
): PreviewState {
  const all = directory.all();
  const chosen = [...list(query.tenants), ...list(query.t)].filter(
    (id, index, ids) => directory.get(id) && ids.indexOf(id) === index,
  );
  const tenants = chosen.length ? chosen.map((id) => directory.get(id)!) : all;
  const asked = typeof query.route === 'string' && query.route ? query.route : DEFAULT_PREVIEW_ROUTE;
  const screens = previewScreens();
  const byId = screens.find((screen) => screen.id === asked);
  // A path that is a registry route without parameters counts as that route (old links: route=/faq).
  const byPath = asked.startsWith('/') ? screens.find((screen) => `/${screen.path}` === asked) : undefined;
  const custom = typeof query.path === 'string' && query.path.startsWith('/') ? query.path : undefined;
  const route = custom
    ? { path: custom }
    : byId
      ? { screen: byId, path: `/${byId.path}` }
      : byPath
        ? { screen: byPath, path: asked }
        : asked.startsWith('/')
          ? { path: asked }
          : {
              screen: screens.find((s) => s.id === DEFAULT_PREVIEW_ROUTE),
              path: `/${DEFAULT_PREVIEW_ROUTE}`,
            };
  const customWidth = Number(query.customWidth);
  const width = Math.min(
    2560,
    Math.max(280, query.width === 'custom' && customWidth ? customWidth : Number(query.width) || 360),
  );
  const lang = query.lang === 'de' || query.lang === 'en' ? query.lang : '';
  const users = new Map<string, string>();
  const everywhere = typeof query.user === 'string' ? query.user.trim().toLowerCase() : '';
  for (const tenant of tenants) {
    const logins = previewLoginsOf(tenant, demoDataInEveryTenant).map((login) => login.email);
    const own = query[`user.${tenant.id}`];
    const email = typeof own === 'string' ? own.trim().toLowerCase() : everywhere;
    if (email && logins.includes(email)) users.set(tenant.id, email);
  }
  return { tenants, route, width, lang, users, demoDataInEveryTenant, sync: query.sync !== '0' };
}

function frameSection(tenant: ServerTenant, state: PreviewState): string {
  const user = state.users.get(tenant.id) ?? '';
  const served =
    !state.route.screen || previewScreens(tenant).some((screen) => screen.id === state.route.screen!.id);
  const needsParams = state.route.path.includes(':');
  const separator = state.route.path.includes('?') ? '&' : '?';
  const langQuery = state.lang ? `${separator}lang=${state.lang}` : '';
  // Signed-out frames load at once; signed-in ones are signed in by preview.js first (it fills the ids).
  const src = !user && !needsParams ? `/t/${tenant.id}${state.route.path}${langQuery}` : 'about:blank';
  const logins = previewLoginsOf(tenant, state.demoDataInEveryTenant);
  const status = user
    ? `Signing in as ${user}…`
    : needsParams
      ? logins.length
        ? 'This screen needs a signed-in user: choose a demo login.'
        : // A publisher's tenant has no demo subscribers here; `portal preview` gives every tenant some.
          `This screen needs a signed-in user, and ${tenant.id} has no demo logins on this server (it is no demo tenant): \`portal preview ${tenant.id}\` fills a database of its own with demo subscribers for every tenant it shows.`
      : state.route.screen && isAnonymousScreen(state.route.screen)
        ? 'Signed out.'
        : 'Signed out (the portal asks to log in).';
  const options = [`<option value="" ${user ? '' : 'selected'}>signed out</option>`]
    .concat(
      logins.map(
        (login) =>
          `<option value="${escape(login.email)}" ${login.email === user ? 'selected' : ''} title="${escape(login.description)}">${escape(login.email)}</option>`,
      ),
    )
    .join('');
  return `<section class="tenant" data-tenant="${escape(tenant.id)}" data-user="${escape(user)}" data-path="${escape(state.route.path)}" data-route="${escape(state.route.screen?.id ?? '')}" data-lang="${state.lang}" aria-labelledby="h-${escape(tenant.id)}">
<h2 id="h-${escape(tenant.id)}">${escape(tenant.name)} <small>${escape(tenant.id)}</small></h2>
<label class="user">Demo user <select name="user.${escape(tenant.id)}" form="controls">${options}</select></label>
${served ? '' : `<p class="warn">No enabled feature of ${escape(tenant.id)} serves ${escape(state.route.screen!.id)}: the portal shows its feature-disabled notice.</p>`}
<p class="status" role="status">${escape(status)}</p>
<p class="at">at <code class="location">${src === 'about:blank' ? '–' : escape(src)}</code> <span class="scale"></span></p>
<div class="frame-wrap"><iframe title="${escape(tenant.name)} at ${escape(state.route.path)}" src="${escape(src)}" style="width:${state.width}px"></iframe></div>
</section>`;
}

/** Tenants × features: which feature of the registry each tenant has on, and through which flags. */
export function featureMatrix(tenants: readonly ServerTenant[]): string {
  const catalog = featureCatalog();
  const on = new Map(
    tenants.map((tenant) => [
      tenant.id,
      new Set(enabledCatalogFeatures(catalog, tenant.features).map((feature) => feature.id)),
    ]),
  );
  const head = tenants.map((tenant) => `<th scope="col">${escape(tenant.id)}</th>`).join('');
  const rows = catalog.features
    .map((feature) => {
      const flags = feature.flags.length ? feature.flags.join(', ') : 'always on';
      const cells = tenants
        .map((tenant) => {
          const enabled = on.get(tenant.id)!.has(feature.id);
          const via = feature.flags.filter((flag) => tenant.features.includes(flag));
          return `<td class="${enabled ? 'on' : 'off'}">${enabled ? `✓<span class="sr"> on</span>${via.length ? ` <small>${escape(via.join(', '))}</small>` : ''}` : '–<span class="sr"> off</span>'}</td>`;
        })
        .join('');
      return `<tr><th scope="row">${escape(feature.id)} <small>${escape(flags)}</small></th>${cells}</tr>`;
    })
    .join('\n');
  const totals = tenants
    .map((tenant) => `<td>${on.get(tenant.id)!.size} of ${catalog.features.length}</td>`)
    .join('');
  // Scrolls sideways on its own on a phone, so the page (and the frames' height) keeps the window's width.
  return `<div class="matrix-wrap" tabindex="0" role="region" aria-label="Feature matrix"><table class="matrix"><caption>Feature matrix: the features each tenant has on (engine/features/index.ts, from the tenant's flags)</caption>
<thead><tr><th scope="col">feature <small>flags</small></th>${head}</tr></thead><tbody>${rows}</tbody><tfoot><tr><th scope="row">on</th>${totals}</tr></tfoot></table></div>`;
}

function routeOptions(state: PreviewState): string {
  const groups = new Map<string, PreviewScreen[]>();
  for (const screen of previewScreens())
    groups.set(screen.feature, [...(groups.get(screen.feature) ?? []), screen]);
  return [...groups]
    .map(
      ([feature, screens]) =>
        `<optgroup label="${escape(feature)}">${screens.map((screen) => `<option value="${escape(screen.id)}" ${state.route.screen?.id === screen.id ? 'selected' : ''}>${escape(screen.id)} — /${escape(screen.path)}</option>`).join('')}</optgroup>`,
    )
    .join('');
}

/**
 * /preview — the QA page (docs/operators.md "The preview page"): the chosen tenants side by side at
 * one route, width and language, each frame signed out or signed in as one of its demo logins
 * (sessions are per tenant, engine/core/tenantSession.ts, so frames of different tenants never
 * share one); the route picker lists the registry's screens and fills their ids from the demo
 * user's subscriptions; frames are scaled to fit the window and scroll together; below, the feature
 * matrix of every tenant. The behaviour is in preview.js (previewScript.ts).
 */
export function previewPage(directory: TenantDirectory, demoDataInEveryTenant = false): RequestHandler {
  return (req, res) => {
    const state = previewState(req.query as Record<string, unknown>, directory, demoDataInEveryTenant);
    const all = directory.all();
    const custom = !PREVIEW_WIDTHS.includes(state.width as (typeof PREVIEW_WIDTHS)[number]);
    const checkboxes = all
      .map(
        (tenant) =>
          `<label><input type="checkbox" name="t" value="${escape(tenant.id)}" ${state.tenants.includes(tenant) ? 'checked' : ''}> ${escape(tenant.id)}</label>`,
      )
      .join(' ');
    const frames = state.tenants.map((tenant) => frameSection(tenant, state)).join('\n');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; frame-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    );
    res.setHeader('Cache-Control', 'no-store');
    res.type('html')
      .send(`<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>QA preview</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;color:#1a1a1a}h1{font-size:1.4rem;margin:0 0 .5rem}
form{display:flex;flex-wrap:wrap;gap:.75rem 1rem;align-items:end;margin-bottom:1rem}label{display:inline-flex;flex-direction:column;gap:.2rem;font-size:.85rem}
label,select{max-width:100%}fieldset{display:flex;flex-wrap:wrap;gap:.5rem;border:1px solid #bbb;border-radius:4px}fieldset label,label.check{flex-direction:row;align-items:center;gap:.3rem}
select,input,button{font:inherit;padding:.25rem .4rem}input[type=number]{width:6rem}button{cursor:pointer}
.row{display:flex;gap:16px;align-items:flex-start;overflow-x:auto}.tenant{flex:1 1 0;min-width:0}.tenant h2{font-size:1rem;margin:.25rem 0}.tenant small{color:#555;font-weight:normal}
.status,.at,.warn{font-size:.8rem;margin:.2rem 0;overflow-wrap:anywhere}.warn{color:#8a4b00}.frame-wrap{overflow:hidden;border:1px solid #999;border-radius:6px;background:#fff}
iframe{border:0;display:block;transform-origin:0 0;height:760px}.matrix-wrap{position:relative;overflow-x:auto;max-width:100%;margin-top:2rem}.matrix{border-collapse:collapse;font-size:.8rem}.matrix caption{text-align:left;font-weight:bold;font-size:1rem;margin-bottom:.5rem}
.matrix th,.matrix td{border:1px solid #ccc;padding:.2rem .4rem;text-align:left}.matrix td.on{background:#e6f4ea}.matrix td.off{color:#595959}.matrix small{color:#555}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}</style>
<script src="/preview/preview.js" defer></script></head>
<body><main><h1>QA preview</h1>
<form id="controls" method="get" action="/preview">
<label>Screen <select name="route">${routeOptions(state)}${state.route.screen ? '' : `<option value="${escape(state.route.path)}" selected>${escape(state.route.path)}</option>`}</select></label>
<label>or path <input name="path" placeholder="/faq" value="${state.route.screen ? '' : escape(state.route.path)}"></label>
<label>Width <select name="width">${PREVIEW_WIDTHS.map((w) => `<option value="${w}" ${!custom && w === state.width ? 'selected' : ''}>${w} px</option>`).join('')}<option value="custom" ${custom ? 'selected' : ''}>custom</option></select></label>
<label>Custom width (px) <input type="number" name="customWidth" min="280" max="2560" value="${custom ? state.width : ''}"></label>
<label>Language <select name="lang"><option value="">tenant default</option><option value="de" ${state.lang === 'de' ? 'selected' : ''}>de</option><option value="en" ${state.lang === 'en' ? 'selected' : ''}>en</option></select></label>
<label class="check"><input type="checkbox" id="sync" ${state.sync ? 'checked' : ''}> synced scrolling</label>
<fieldset><legend>Tenants</legend>${checkboxes}</fieldset><button type="submit">Show</button></form>
<div class="row" data-width="${state.width}">${frames}</div>
${featureMatrix(all)}</main></body></html>`);
  };
}
