/**
 * An order attribute's label (tenant orderAttributes, written as a heading: "Cost centre") inside
 * a sentence such as "Add {{label}}": English writes it in lower case there ("Add cost centre"),
 * unless its first word is an abbreviation ("VAT number", "PO reference"); German keeps its nouns
 * capitalised ("Kostenstelle hinzufügen").
 */
export function labelInSentence(label: string, language: string): string {
  if (!language.startsWith('en')) return label;
  const firstWord = label.split(/\s/, 1)[0];
  const isAbbreviation =
    firstWord.length > 1 &&
    firstWord
      .slice(1)
      .split('')
      .some((c) => c !== c.toLowerCase());
  if (isAbbreviation || firstWord === 'I') return label;
  return label.charAt(0).toLocaleLowerCase('en-GB') + label.slice(1);
}
