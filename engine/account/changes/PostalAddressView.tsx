import { useTranslation } from '../../core/translation';
import type { PostalAddress } from '../../../schemas/generated/account-changes';
import { countryName } from '../../domain/countryNames';
import { postalLines } from './postalAddress';

/** An address shown line by line, the country by its name in the screen's language. */
export function PostalAddressView({ address }: { address: Partial<PostalAddress> | null | undefined }) {
  const { i18n } = useTranslation();
  const lines = postalLines(address);
  if (address?.countryCode) lines.push(countryName(address.countryCode, i18n.language));
  return (
    <address className="address">
      {lines.map((line, index) => (
        <span key={index} className="address-line">
          {line}
        </span>
      ))}
    </address>
  );
}
