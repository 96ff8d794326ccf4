import { PDFParse } from 'pdf-parse';

/** A PDF's text, as a reader's copy and paste would give it (pdf-parse, on PDF.js). */
export async function pdfText(pdf: Buffer | ArrayBuffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}
