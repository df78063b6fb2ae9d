/**
 * The words of the studio's insights page, in the operator's language like the rest of
 * the studio (`?lang=de-DE|en-GB`).
 */
import type { StudioLang } from './texts';

const INSIGHTS_TEXTS = {
  'en-GB': {
    title: 'Retention insights',
    source:
      "From this server's database: the studio's own when it runs under `portal studio`, not the live portal's. A live tenant's insights: `npx portal insights <tenant>` with the live DATABASE_URL, or GET /operator/v1/insights.",
    back: 'Back to the editor',
    open: 'Insights',
    tenant: 'Tenant',
    from: 'From',
    to: 'To',
    show: 'Show',
    lastWeeks: 'Last {n} weeks',
    period: '{from} to {to}; an outcome counts for the flow started up to {days} days before it.',
    loading: 'Loading …',
    flow_cancellation: 'Cancellations',
    flow_renewal: 'Renewals offered',
    flow_upgrade: 'Upgrades offered',
    started: 'Flows started',
    offersShown: 'Offers shown',
    accepted: 'Accepted and paid',
    cancelled: 'Cancelled',
    kept: 'Kept',
    saveRate: 'Save rate',
    revenueKept: 'Revenue kept',
    publication: 'Publication',
    reason: 'Reason',
    noFlows: 'No flows in this period.',
    trend: 'Weekly trend',
    trendCounts: 'Flows started per week',
    trendCountsLabel: 'Flows started per ISO week, per flow (axis: number of flows)',
    trendRates: 'Save rate per week',
    trendRatesLabel:
      'Save rate of the flows started in each ISO week whose outcome is known, per flow (axis: per cent)',
    countAxis: 'Flows',
    rateAxis: 'Save rate (%)',
    openFlows: 'Open',
    openNote:
      'Open: started less than {days} days ago, so what the flow keeps is not known yet. Open flows are counted on their own and in no save rate; a flow is kept only once its {days} days have passed without a cancellation (cancellations) or with an accepted offer (renewals, upgrades).',
    ofClosed: 'of {n} flows with a known outcome; {open} open',
    moneyNote: 'Revenue kept: the prices of the offers accepted and paid, per currency, open flows included.',
    week: 'Week',
    experiments: 'Offer experiments',
    noExperiments:
      'No offer experiments. Add one in the editor under Flows → offerExperiments: per flow or cancellation reason, two or more variants of the offers with weights.',
    variant: 'Variant',
    weight: 'Weight',
    offers: 'Offers',
    noOffer: '(no offer)',
    interval: '95 % interval',
    significant: 'The save rates differ significantly (5 %).',
    notSignificant: 'The difference is not (yet) significant: keep the experiment running.',
    against: '{variant} against {control}: {difference} points, p = {p}',
    removed: 'no longer in the tenant file',
    unknownOffers: 'Offers the order system does not have: {offers}',
    unknownReason: 'The reason {reason} is not among the order system’s cancellation reasons.',
    allReasons: 'every reason',
  },
  'de-DE': {
    title: 'Kündigungs- und Angebotsauswertung',
    source:
      'Aus der Datenbank dieses Servers: unter `portal studio` die eigene des Studios, nicht die des Live-Portals. Die Auswertung eines Live-Mandanten: `npx portal insights <mandant>` mit der DATABASE_URL des Live-Systems, oder GET /operator/v1/insights.',
    back: 'Zurück zum Editor',
    open: 'Auswertung',
    tenant: 'Mandant',
    from: 'Von',
    to: 'Bis',
    show: 'Anzeigen',
    lastWeeks: 'Letzte {n} Wochen',
    period: '{from} bis {to}; ein Ergebnis zählt für den Ablauf, der bis zu {days} Tage davor begonnen hat.',
    loading: 'Lädt …',
    flow_cancellation: 'Kündigungen',
    flow_renewal: 'Angebotene Verlängerungen',
    flow_upgrade: 'Angebotene Upgrades',
    started: 'Begonnene Abläufe',
    offersShown: 'Angebote gezeigt',
    accepted: 'Angenommen und bezahlt',
    cancelled: 'Gekündigt',
    kept: 'Gehalten',
    saveRate: 'Halterate',
    revenueKept: 'Gehaltener Umsatz',
    publication: 'Publikation',
    reason: 'Grund',
    noFlows: 'Keine Abläufe in diesem Zeitraum.',
    trend: 'Verlauf nach Wochen',
    trendCounts: 'Begonnene Abläufe je Woche',
    trendCountsLabel: 'Begonnene Abläufe je ISO-Woche und Ablauf (Achse: Anzahl der Abläufe)',
    trendRates: 'Halterate je Woche',
    trendRatesLabel:
      'Halterate der in jeder ISO-Woche begonnenen Abläufe mit bekanntem Ergebnis, je Ablauf (Achse: Prozent)',
    countAxis: 'Abläufe',
    rateAxis: 'Halterate (%)',
    openFlows: 'Offen',
    openNote:
      'Offen: vor weniger als {days} Tagen begonnen, das Ergebnis steht also noch aus. Offene Abläufe werden für sich gezählt und in keiner Halterate; gehalten ist ein Ablauf erst, wenn seine {days} Tage ohne Kündigung (Kündigungen) oder mit angenommenem Angebot (Verlängerungen, Upgrades) vergangen sind.',
    ofClosed: 'von {n} Abläufen mit bekanntem Ergebnis; {open} offen',
    moneyNote:
      'Gehaltener Umsatz: die Preise der angenommenen und bezahlten Angebote, je Währung, offene Abläufe eingeschlossen.',
    week: 'Woche',
    experiments: 'Angebotsexperimente',
    noExperiments:
      'Keine Angebotsexperimente. Legen Sie eines im Editor unter Abläufe → offerExperiments an: je Ablauf oder Kündigungsgrund zwei oder mehr Varianten der Angebote mit Gewichten.',
    variant: 'Variante',
    weight: 'Gewicht',
    offers: 'Angebote',
    noOffer: '(kein Angebot)',
    interval: '95-%-Intervall',
    significant: 'Die Halteraten unterscheiden sich signifikant (5 %).',
    notSignificant: 'Der Unterschied ist (noch) nicht signifikant: Lassen Sie das Experiment weiterlaufen.',
    against: '{variant} gegenüber {control}: {difference} Prozentpunkte, p = {p}',
    removed: 'nicht mehr in der Mandantendatei',
    unknownOffers: 'Angebote, die das Auftragssystem nicht kennt: {offers}',
    unknownReason: 'Den Grund {reason} kennt das Auftragssystem nicht.',
    allReasons: 'alle Gründe',
  },
} as const;

export type InsightsTextKey = keyof (typeof INSIGHTS_TEXTS)['en-GB'];

export function insightsText(
  lang: StudioLang,
  key: InsightsTextKey,
  values: Record<string, string | number> = {},
): string {
  return INSIGHTS_TEXTS[lang][key].replace(/\{(\w+)\}/g, (_, name: string) =>
    String(values[name] ?? `{${name}}`),
  );
}
