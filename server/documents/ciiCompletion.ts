/**
 * What @e-invoice-eu/core (2.3.x) leaves out of the CII it writes although the invoice gives it,
 * put back into the XML (docs/invoices.md "E-invoices"), for the Factur-X attachment and the XRechnung alike:
 *
 * - BT-13, the order reference (`ram:BuyerOrderReferencedDocument`): the library writes it for its
 *   EXTENDED profile only, while EN 16931 (and so Factur-X EN 16931 and XRechnung) has it. The PDF
 *   prints the order number; the XML must say it too.
 * - BT-33, the seller's additional legal information (`ram:SellerTradeParty/ram:Description`): the
 *   library reads it from `cbc:LegalForm`, a key its own schema refuses (the UBL name it accepts,
 *   `cbc:CompanyLegalForm`, it never maps), so the register entry never reached any XML.
 *
 * Each is inserted where the UN/CEFACT CII D16B schema's sequence wants it, and only where the
 * library did not write it already (a later version that fixes this changes nothing here).
 */
import { escapeXml } from './xmlText';

export interface CiiAdditions {
  /** BT-13: the order number the invoice prints. */
  orderReference?: string;
  /** BT-33: the seller's register entry ("Amtsgericht Augsburg HRB 12345"). */
  sellerLegalInformation?: string;
}

/** Replaces the first match of `pattern` by what `edit` makes of it; the text unchanged without one. */
function editBlock(xml: string, pattern: RegExp, edit: (block: string) => string): string {
  const match = pattern.exec(xml);
  if (!match) return xml;
  return xml.slice(0, match.index) + edit(match[0]) + xml.slice(match.index + match[0].length);
}

/** The element's indentation in the library's pretty-printed XML, for the inserted lines. */
function indentOf(block: string, closingTag: string): string {
  return /\n([ \t]*)[^\n]*$/.exec(block.slice(0, block.lastIndexOf(closingTag)))?.[1] ?? '';
}

export function completeCii(xml: string, additions: CiiAdditions): string {
  let out = xml;
  const { orderReference, sellerLegalInformation } = additions;
  if (orderReference)
    out = editBlock(
      out,
      /<ram:ApplicableHeaderTradeAgreement>[\s\S]*?<\/ram:ApplicableHeaderTradeAgreement>/,
      (block) => {
        if (block.includes('<ram:BuyerOrderReferencedDocument>')) return block;
        // CII D16B HeaderTradeAgreementType: … SellerTaxRepresentativeTradeParty,
        // ProductEndUserTradeParty, ApplicableTradeDeliveryTerms, SellerOrderReferencedDocument,
        // then BuyerOrderReferencedDocument.
        const after = [
          '</ram:SellerOrderReferencedDocument>',
          '</ram:ApplicableTradeDeliveryTerms>',
          '</ram:ProductEndUserTradeParty>',
          '</ram:SellerTaxRepresentativeTradeParty>',
          '</ram:BuyerTradeParty>',
        ].find((tag) => block.includes(tag));
        if (!after) return block;
        const at = block.indexOf(after) + after.length;
        const indent = indentOf(block.slice(0, at), after);
        const element =
          `\n${indent}<ram:BuyerOrderReferencedDocument>\n${indent}\t<ram:IssuerAssignedID>` +
          `${escapeXml(orderReference)}</ram:IssuerAssignedID>\n${indent}</ram:BuyerOrderReferencedDocument>`;
        return block.slice(0, at) + element + block.slice(at);
      },
    );
  if (sellerLegalInformation)
    out = editBlock(out, /<ram:SellerTradeParty>[\s\S]*?<\/ram:SellerTradeParty>/, (block) => {
      if (/<ram:Description>/.test(block.replace(/<ram:SpecifiedLegalOrganization>[\s\S]*$/, '')))
        return block;
      // TradePartyType: ID, GlobalID, Name, RoleCode, then Description.
      const name = /<ram:Name>[\s\S]*?<\/ram:Name>(\s*<ram:RoleCode>[\s\S]*?<\/ram:RoleCode>)*/.exec(block);
      if (!name) return block;
      const at = name.index + name[0].length;
      const indent = indentOf(block.slice(0, at), '</ram:');
      return `${block.slice(0, at)}\n${indent}<ram:Description>${escapeXml(sellerLegalInformation)}</ram:Description>${block.slice(at)}`;
    });
  return out;
}
