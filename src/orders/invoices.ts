import type { Knex } from 'knex';
import { z } from 'zod';
import type { Db } from '../db/knex.ts';
import { NotFound } from '../kernel/errors.ts';
import { updateShopSettings } from '../settings/settings.ts';
import { countryName } from '../shop/countries.ts';
import { formatPrice } from '../shop/price.ts';
import { type OrderPlacedData, orderCurrency, orderTaxLabel } from './domain.ts';
import { loadStream, type StoredEvent, stateOf } from './store.ts';

/** Who sells, as invoices and credit notes print it (Settings → Tax). */
export type Seller = { name: string; address: string; taxId: string };

export const INVOICE_MESSAGES = {
  saved: 'Seller details saved',
  name: 'Seller name must be at most 200 characters',
  address: 'Seller address must be at most 1000 characters',
  taxId: 'Tax ID must be at most 50 characters',
  noInvoice: 'This order has no invoice yet: it is issued when the order is paid.',
  noCreditNote: 'Credit note not found',
} as const;

/** The seller's details form. */
export const sellerSchema = z.object({
  sellerName: z.string().trim().max(200, INVOICE_MESSAGES.name),
  sellerAddress: z.string().trim().max(1000, INVOICE_MESSAGES.address),
  sellerTaxId: z.string().trim().max(50, INVOICE_MESSAGES.taxId),
});

export async function sellerDetails(db: Db | Knex.Transaction): Promise<Seller> {
  const row = await db('blog_settings')
    .where({ id: 1 })
    .first('seller_name', 'seller_address', 'seller_tax_id');
  return {
    name: row?.seller_name ?? '',
    address: row?.seller_address ?? '',
    taxId: row?.seller_tax_id ?? '',
  };
}

export async function updateSeller(db: Db, input: z.output<typeof sellerSchema>): Promise<void> {
  await updateShopSettings(db, {
    seller_name: input.sellerName,
    seller_address: input.sellerAddress,
    seller_tax_id: input.sellerTaxId,
  });
}

/** A numbered document of an order: its invoice, or a refund's credit note. */
export type OrderDocument = { number: string; kind: 'invoice' | 'credit-note'; issuedAt: Date };

/** The order's numbered documents, in the order they were issued. */
export function orderDocuments(stream: StoredEvent[]): OrderDocument[] {
  return stream.flatMap((event): OrderDocument[] => {
    if (event.type === 'PaymentSucceeded' && event.data.invoiceNumber)
      return [{ number: event.data.invoiceNumber, kind: 'invoice', issuedAt: event.createdAt }];
    if (event.type === 'RefundIssued' && event.data.creditNoteNumber)
      return [{ number: event.data.creditNoteNumber, kind: 'credit-note', issuedAt: event.createdAt }];
    return [];
  });
}

/**
 * A PDF drawn with pdfkit's built-in Helvetica (no font files to ship). pdfkit is loaded with the
 * first document, not with the process: it holds about 21 MB that a web process rarely needs.
 */
async function pdf(title: string, draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: title } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc);
  doc.end();
  return done;
}

/** Seller and buyer side by side, then the document's title, number and date. */
function heading(
  doc: PDFKit.PDFDocument,
  seller: Seller,
  placed: OrderPlacedData,
  title: string,
  lines: string[],
) {
  const top = doc.y;
  doc
    .fontSize(10)
    .font('Helvetica-Bold')
    .text(seller.name || 'Seller', 50, top, { width: 240 });
  doc.font('Helvetica').text(seller.address, { width: 240 });
  if (seller.taxId) doc.text(`Tax ID: ${seller.taxId}`, { width: 240 });
  const buyer = [
    [placed.firstName, placed.lastName].filter(Boolean).join(' '),
    placed.email,
    ...(placed.address
      ? [placed.address, `${placed.postalCode} ${placed.city}`, countryName(placed.country)]
      : []),
  ];
  doc.font('Helvetica-Bold').text('Bill to', 320, top, { width: 225 });
  doc.font('Helvetica').text(buyer.filter(Boolean).join('\n'), { width: 225 });
  doc.x = 50;
  doc.moveDown(2);
  doc.y = Math.max(doc.y, top + 110);
  doc.fontSize(18).font('Helvetica-Bold').text(title, 50);
  doc.fontSize(10).font('Helvetica').text(lines.join('\n'));
  doc.moveDown();
}

/** One row of label and amount, the amount right-aligned. */
function row(doc: PDFKit.PDFDocument, label: string, amount: string, bold = false) {
  const y = doc.y;
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
  doc.text(label, 50, y, { width: 380 });
  doc.text(amount, 430, y, { width: 115, align: 'right' });
  doc.x = 50;
}

const dateOf = (date: Date) => date.toISOString().slice(0, 10);

async function documentsOf(db: Db, orderId: number) {
  const stream = await loadStream(db, orderId);
  const state = stateOf(stream);
  if (!state.placed) throw new NotFound('Order not found');
  return { state, placed: state.placed, documents: orderDocuments(stream), stream };
}

/** The order's invoice as a PDF: its lines with their tax, the sums, seller and buyer. */
export async function invoicePdf(db: Db, orderId: number): Promise<{ number: string; pdf: Buffer }> {
  return renderInvoice(orderId, await loadStream(db, orderId), await sellerDetails(db));
}

/** The invoice of the order's stream (the payment mail attaches it as the mail job reads the stream). */
export async function renderInvoice(
  orderId: number,
  stream: StoredEvent[],
  seller: Seller,
): Promise<{ number: string; pdf: Buffer }> {
  const state = stateOf(stream);
  const placed = state.placed;
  const invoice = orderDocuments(stream).find((d) => d.kind === 'invoice');
  if (!placed || !invoice) throw new NotFound(INVOICE_MESSAGES.noInvoice);
  const price = (cents: number) => formatPrice(cents, orderCurrency(state));
  const subtotal = placed.items.reduce((n, i) => n + i.quantity * i.priceAtTime, 0);
  const tax = placed.taxAmount ?? 0;
  const body = await pdf(`Invoice ${invoice.number}`, (doc) => {
    heading(doc, seller, placed, `Invoice ${invoice.number}`, [
      `Date: ${dateOf(invoice.issuedAt)}`,
      `Order #${orderId}`,
      ...(placed.taxIncluded ? ['Prices include tax.'] : []),
    ]);
    for (const item of placed.items) {
      const rate = item.tax ? ` (${item.tax.name} ${item.tax.rate}%: ${price(item.tax.amount)})` : '';
      row(
        doc,
        `${item.quantity} x ${item.productName} at ${price(item.priceAtTime)}${rate}`,
        price(item.quantity * item.priceAtTime),
      );
    }
    doc.moveDown();
    row(doc, 'Subtotal', price(subtotal));
    if (placed.discount) row(doc, `Discount (${placed.discount.code})`, `-${price(placed.discount.amount)}`);
    if (placed.address) row(doc, `Shipping (${placed.shippingMethod})`, price(placed.shippingCost ?? 0));
    const label = orderTaxLabel(placed);
    if (tax && !placed.taxIncluded) row(doc, `Tax${label ? ` (${label})` : ''}`, price(tax));
    row(doc, 'Total', price(placed.totalAmount), true);
    if (tax && placed.taxIncluded) row(doc, `Including tax${label ? ` (${label})` : ''}`, price(tax));
    doc.moveDown();
    doc.font('Helvetica').text(`Paid: ${price(state.paidAmount)}`);
  });
  return { number: invoice.number, pdf: body };
}

/** A refund's credit note as a PDF: what was given back and its share of the tax, against the invoice. */
export async function creditNotePdf(
  db: Db,
  orderId: number,
  number: string,
): Promise<{ number: string; pdf: Buffer }> {
  const { state, placed, documents, stream } = await documentsOf(db, orderId);
  const refund = stream.find((e) => e.type === 'RefundIssued' && e.data.creditNoteNumber === number);
  if (refund?.type !== 'RefundIssued') throw new NotFound(INVOICE_MESSAGES.noCreditNote);
  const invoice = documents.find((d) => d.kind === 'invoice');
  const seller = await sellerDetails(db);
  const price = (cents: number) => formatPrice(cents, orderCurrency(state));
  const tax = refund.data.tax ?? 0;
  const body = await pdf(`Credit note ${number}`, (doc) => {
    heading(doc, seller, placed, `Credit note ${number}`, [
      `Date: ${dateOf(refund.createdAt)}`,
      `Order #${orderId}${invoice ? `, invoice ${invoice.number}` : ''}`,
      ...(refund.data.reason ? [`Reason: ${refund.data.reason}`] : []),
    ]);
    row(doc, 'Refunded without tax', price(refund.data.amount - tax));
    if (tax) row(doc, `Tax (${orderTaxLabel(placed)})`, price(tax));
    row(doc, 'Total refunded', price(refund.data.amount), true);
  });
  return { number, pdf: body };
}
