/** Print to PDF on A4 pages (docs/overview.md): the browser's print dialog saves a PDF. */
export const A4_PRINT_STYLE_ID = 'portal-print-a4';

export const A4_PRINT_CSS = `@page { size: A4; margin: 12mm; }
@media print {
  body { background: #fff !important; color: #000 !important; }
  .no-print, .ant-layout-sider, .ant-layout-header, .ant-layout-footer { display: none !important; }
  .print-page { break-after: page; }
}`;

export function ensureA4PrintStyle(doc: Document = document): HTMLStyleElement {
  const existing = doc.getElementById(A4_PRINT_STYLE_ID);
  if (existing instanceof HTMLStyleElement) return existing;
  const style = doc.createElement('style');
  style.id = A4_PRINT_STYLE_ID;
  style.textContent = A4_PRINT_CSS;
  doc.head.appendChild(style);
  return style;
}

/** Opens the print dialog with A4 page rules; the document title becomes the file name. */
export function printA4(title?: string, win: Window = window): void {
  ensureA4PrintStyle(win.document);
  const previous = win.document.title;
  if (title) win.document.title = title;
  try {
    win.print();
  } finally {
    win.document.title = previous;
  }
}
