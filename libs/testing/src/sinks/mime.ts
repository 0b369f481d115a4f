/**
 * A small RFC 5322 / MIME reader for the messages tests receive (mailparser cannot be installed
 * from our registry): unfolds headers, decodes RFC 2047 encoded words, quoted-printable and
 * base64 bodies, and walks multipart bodies for their text/plain and text/html parts.
 */
export interface ParsedMessage {
  /** Header names lower-cased; repeated headers keep the first value. */
  headers: Map<string, string>;
  subject: string;
  text: string;
  html?: string;
}

export function parseMessage(raw: string): ParsedMessage {
  const { headers, body } = splitEntity(raw);
  const parsed: ParsedMessage = {
    headers,
    subject: headers.get('subject') ?? '',
    text: '',
  };
  collectParts(headers, body, parsed);
  return parsed;
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end >= 0 ? normalized.slice(0, end) : normalized;
  const body = end >= 0 ? normalized.slice(end + 2) : '';
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function collectParts(headers: Map<string, string>, body: string, into: ParsedMessage): void {
  const contentType = headers.get('content-type') ?? 'text/plain';
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return;
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      const part = splitEntity(section.replace(/^\n/, ''));
      collectParts(part.headers, part.body, into);
    }
    return;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding'));
  if (type === 'text/plain' && into.text === '') into.text = decoded;
  if (type === 'text/html' && into.html === undefined) into.html = decoded;
}

function decodeBody(body: string, encoding = '7bit'): string {
  switch (encoding.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

/** RFC 2045 § 6.7: soft line breaks (`=` at line end) vanish, `=XX` is one byte. */
export function decodeQuotedPrintable(input: string): string {
  const bytes: number[] = [];
  const text = input.replace(/[ \t]+$/gm, '').replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?utf-8?Q?…?=`, `=?utf-8?B?…?=`); whitespace between words drops. */
export function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_all, _charset: string, kind: string, data: string) =>
        kind.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
