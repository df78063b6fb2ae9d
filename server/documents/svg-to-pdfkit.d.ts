// svg-to-pdfkit ships no types; the one call the logo uses (README "Usage").
declare module 'svg-to-pdfkit' {
  interface SvgToPdfOptions {
    width?: number;
    height?: number;
    preserveAspectRatio?: string;
    assumePt?: boolean;
    fontCallback?: (
      family: string,
      bold: boolean,
      italic: boolean,
      options: { fauxBold: boolean; fauxItalic: boolean },
    ) => string;
    warningCallback?: (message: string) => void;
    imageCallback?: (href: string) => string;
  }
  function SVGtoPDF(
    doc: PDFKit.PDFDocument,
    svg: string,
    x?: number,
    y?: number,
    options?: SvgToPdfOptions,
  ): void;
  export default SVGtoPDF;
}
