import contentDisposition from 'content-disposition';
import type { FastifyReply } from 'fastify';

/**
 * Content-Disposition: attachment with the name as RFC 6266 wants it: `filename` in plain ASCII (every other
 * character a "?": a Latin-1 byte in a header is read differently by different clients) and, when that lost
 * anything, `filename*` with the whole name in UTF-8.
 */
export const dispositionOf = (fileName: string): string =>
  contentDisposition(fileName, { type: 'attachment', fallback: fileName.replace(/[^\x20-\x7e]/g, '?') });

/**
 * A file the person saves rather than a page the browser shows (the CSV export, labels, a count's report, an
 * attachment): its type, the attachment disposition with its name, and never cached (it holds the lab's data).
 */
export const asDownload = (reply: FastifyReply, type: string, fileName: string): FastifyReply =>
  reply.type(type).header('Content-Disposition', dispositionOf(fileName)).header('Cache-Control', 'no-store');
