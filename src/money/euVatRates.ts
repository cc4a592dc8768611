/**
 * Standard VAT rates of the EU member states (percentages), as valid from `EU_VAT_RATES_VALID_FROM`
 * (Romania's 21 % of 1 August 2025 being the latest change). Used for OSS: a B2C sale to another
 * member state is invoiced at the customer's country's standard rate. Update the table and its date
 * together when a state changes its rate.
 */
export const EU_VAT_RATES_VALID_FROM = '2025-08-01';

export const EU_STANDARD_VAT_RATES: Readonly<Record<string, string>> = {
  AT: '20',
  BE: '21',
  BG: '20',
  CY: '19',
  CZ: '21',
  DE: '19',
  DK: '25',
  EE: '24',
  ES: '21',
  FI: '25.5',
  FR: '20',
  GR: '24',
  HR: '25',
  HU: '27',
  IE: '23',
  IT: '22',
  LT: '21',
  LU: '17',
  LV: '21',
  MT: '18',
  NL: '21',
  PL: '23',
  PT: '23',
  RO: '21',
  SE: '25',
  SI: '22',
  SK: '23',
};

/** The EU standard rate of a country (ISO code, `EL` for Greece too); null outside the EU. */
export function euStandardVatRate(country: string | null | undefined): string | null {
  if (!country) return null;
  const code = country.trim().toUpperCase();
  return EU_STANDARD_VAT_RATES[code === 'EL' ? 'GR' : code] ?? null;
}
