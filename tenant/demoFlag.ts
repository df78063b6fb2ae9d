/** The part of a tenant file that marks it as a demo (schemas/tenant.schema.json `demo`). */
export interface DemoFlag {
  demo?: boolean;
}

/**
 * Whether the tenant is a demo (README "Demo tenants"): only a tenant file that says `"demo": true`.
 * The seed fills only such a tenant with demo people, and only there does a development page sign
 * anyone in without a link. A publisher's tenant (the ones `portal new` writes) starts empty and
 * gets its subscribers from its order system (docs/going-live.md "Going live with your order
 * system"): demo subscribers there would be sent mails, counted in its insights and exported to its
 * webhooks, and its own subscribers sign in as the publisher's portal lets them.
 */
export const isDemoTenant = (tenant: DemoFlag): boolean => tenant.demo === true;
