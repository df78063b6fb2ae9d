/**
 * Shipping of purchase orders (portal-core.md §3 "PackageInfo", §4, §9): pending, or shipped when
 * the scan status is 90; the provider by its code (packageInfo.versWeg) with a tracking link built
 * from the provider's URL template. Tenants replace the default list (shippingStatus.providers).
 */
export const SHIPPED_SCAN_STATUS = '90';

export interface ShippingProvider {
  code: string;
  name: string;
  trackingUrlTemplate?: string;
}

/** §9 "Shipping provider codes", with the public tracking pages of the carriers. */
export const DEFAULT_SHIPPING_PROVIDERS: readonly ShippingProvider[] = [
  { code: '01', name: 'Deutsche Post', trackingUrlTemplate: 'https://www.deutschepost.de/sendung/simpleQueryResult.html?form.sendungsnummer={consignmentNumber}' },
  { code: '02', name: 'DPD', trackingUrlTemplate: 'https://tracking.dpd.de/status/de_DE/parcel/{consignmentNumber}' },
  { code: '07', name: 'DHL', trackingUrlTemplate: 'https://www.dhl.de/de/privatkunden/dhl-sendungsverfolgung.html?piececode={consignmentNumber}' },
  { code: '08', name: 'DHL Express', trackingUrlTemplate: 'https://www.dhl.com/de-de/home/tracking.html?tracking-id={consignmentNumber}' },
  { code: '09', name: 'GLS', trackingUrlTemplate: 'https://gls-group.com/DE/de/paketverfolgung?match={consignmentNumber}' },
  { code: '16', name: 'Selbstabholung / self pickup' },
  { code: '17', name: 'Die Schweizerische Post', trackingUrlTemplate: 'https://service.post.ch/ekp-web/ui/entry/shipping/1/{consignmentNumber}' },
  { code: '91', name: 'Spedition / freight forwarder' },
  { code: '92', name: 'Spedition / freight forwarder' },
];

export interface PackageInfoLike {
  scanStatus: string;
  versWeg: string | null;
  consignmentNumber: string | null;
  deliveryDate: string | null;
}

export interface ShippingStatus {
  state: 'pending' | 'shipped';
  providerName: string | null;
  trackingUrl: string | null;
  consignmentNumber: string | null;
  deliveryDate: string | null;
}

export function providersOf(tenant: { shippingStatus?: { providers?: readonly ShippingProvider[] } }): readonly ShippingProvider[] {
  return tenant.shippingStatus?.providers ?? DEFAULT_SHIPPING_PROVIDERS;
}

export function shippingStatus(info: PackageInfoLike | null, providers: readonly ShippingProvider[]): ShippingStatus {
  if (!info || info.scanStatus !== SHIPPED_SCAN_STATUS) {
    return { state: 'pending', providerName: null, trackingUrl: null, consignmentNumber: null, deliveryDate: null };
  }
  const provider = providers.find((p) => p.code === info.versWeg);
  const trackingUrl =
    provider?.trackingUrlTemplate && info.consignmentNumber
      ? provider.trackingUrlTemplate.replaceAll('{consignmentNumber}', encodeURIComponent(info.consignmentNumber))
      : null;
  return {
    state: 'shipped',
    providerName: provider?.name ?? null,
    trackingUrl,
    consignmentNumber: info.consignmentNumber,
    deliveryDate: info.deliveryDate,
  };
}
