/**
 * Shipping of purchase orders (portal-core.md §3 "PackageInfo", §4, §9): pending, or shipped when
 * the scan status is 90; the provider by its code (packageInfo.versWeg) with a tracking link built
 * from the provider's URL template. Tenants replace the default list (shippingStatus.providers).
 * Provider names are texts (orders.shippingProvider.<code> in engine/features/orders/texts.json);
 * a tenant's own provider `name` takes precedence.
 */
export const SHIPPED_SCAN_STATUS = '90';

export interface ShippingProvider {
  code: string;
  /** The tenant's own name for the provider, shown in every language; without it the text orders.shippingProvider.<code>. */
  name?: string;
  trackingUrlTemplate?: string;
}

/**
 * §9 "Shipping provider codes", with the public tracking pages of the carriers: the tenant schema's
 * default of `shippingStatus.providers` (tests/domain/ordersRules.test.ts holds the two the same).
 */
export const DEFAULT_SHIPPING_PROVIDERS: readonly ShippingProvider[] = [
  {
    code: '01',
    trackingUrlTemplate:
      'https://www.deutschepost.de/de/s/sendungsverfolgung.html?piececode={consignmentNumber}',
  },
  {
    code: '02',
    trackingUrlTemplate: 'https://tracking.dpd.de/parcelstatus?query={consignmentNumber}',
  },
  {
    code: '07',
    trackingUrlTemplate:
      'https://www.dhl.de/de/privatkunden/pakete-empfangen/verfolgen.html?piececode={consignmentNumber}',
  },
  {
    code: '08',
    trackingUrlTemplate:
      'https://www.dhl.com/de-de/home/tracking/tracking-express.html?tracking-id={consignmentNumber}',
  },
  {
    code: '09',
    trackingUrlTemplate: 'https://gls-group.com/DE/de/paketverfolgung?match={consignmentNumber}',
  },
  { code: '16' },
  {
    code: '17',
    trackingUrlTemplate: 'https://service.post.ch/ekp-web/ui/entry/search/{consignmentNumber}',
  },
  { code: '91' },
  { code: '92' },
];

export interface PackageInfoLike {
  scanStatus: string;
  versWeg: string | null;
  consignmentNumber: string | null;
  deliveryDate: string | null;
}

export interface ShippingStatus {
  state: 'pending' | 'shipped';
  /** packageInfo.versWeg of a known provider: the UI names it by the text orders.shippingProvider.<code>. */
  providerCode: string | null;
  /** The tenant's configured name of that provider, which wins over the text. */
  providerName: string | null;
  trackingUrl: string | null;
  consignmentNumber: string | null;
  deliveryDate: string | null;
}

export function providersOf(tenant: {
  shippingStatus?: { providers?: readonly ShippingProvider[] };
}): readonly ShippingProvider[] {
  return tenant.shippingStatus?.providers ?? DEFAULT_SHIPPING_PROVIDERS;
}

export function shippingStatus(
  info: PackageInfoLike | null,
  providers: readonly ShippingProvider[],
): ShippingStatus {
  if (!info || info.scanStatus !== SHIPPED_SCAN_STATUS) {
    return {
      state: 'pending',
      providerCode: null,
      providerName: null,
      trackingUrl: null,
      consignmentNumber: null,
      deliveryDate: null,
    };
  }
  const provider = providers.find((p) => p.code === info.versWeg);
  const trackingUrl =
    provider?.trackingUrlTemplate && info.consignmentNumber
      ? provider.trackingUrlTemplate.replaceAll(
          '{consignmentNumber}',
          encodeURIComponent(info.consignmentNumber),
        )
      : null;
  return {
    state: 'shipped',
    providerCode: provider?.code ?? null,
    providerName: provider?.name ?? null,
    trackingUrl,
    consignmentNumber: info.consignmentNumber,
    deliveryDate: info.deliveryDate,
  };
}
