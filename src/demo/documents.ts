import type { OwnerRef } from '../attachments/service.js';
import { uploadAttachment } from '../attachments/upload.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';

// The demo's documents (docs/attachments.md): a safety data sheet on a type and a certificate of analysis on one
// bottle, so the demo opens "the SDS from the bottle's page". Each is a one-page PDF made here: a real, valid file
// (cross-reference table and all) with a few lines of text, saying it is a demonstration.

/** A one-page PDF (A4, Helvetica) with these lines. */
export function onePagePdf(lines: string[]): Buffer {
  const pdfText = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = lines.map((line, i) => `BT /F1 ${i === 0 ? 16 : 11} Tf 56 ${780 - i * 22} Td (${pdfText(line)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

async function attach(deps: ServiceDeps, actor: Actor, owner: OwnerRef, name: string, lines: string[]): Promise<void> {
  const bytes = onePagePdf(lines);
  await uploadAttachment(deps, actor, owner, { name, body: [bytes], declaredBytes: bytes.length });
}

export async function seedDocuments(
  deps: ServiceDeps,
  admin: Actor,
  at: { antibodyTypeId: string; itemId: string; instanceId: string; lot: string },
): Promise<void> {
  await attach(deps, admin, { kind: 'type', typeId: at.antibodyTypeId }, 'SDS antibodies (demo).pdf', [
    'Safety data sheet (demonstration)',
    'Antibody solutions in PBS with 0.02 % sodium azide.',
    'Hazards: not classified at this concentration.',
    'Handling: wear gloves; avoid contact with acids (azide).',
    "This sheet is made up for the Labstock demo; use the supplier's own.",
  ]);
  await attach(deps, admin, { kind: 'instance', itemId: at.itemId, instanceId: at.instanceId }, `CoA lot ${at.lot} (demo).pdf`, [
    `Certificate of analysis, lot ${at.lot} (demonstration)`,
    'Concentration: 1 mg/mL. Purity: > 95 % (SDS-PAGE).',
    'Made up for the Labstock demo.',
  ]);
}
