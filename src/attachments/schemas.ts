import { type Static, Type } from 'typebox';
import { UserSummary } from '../accounts/schemas.js';
import { DateTime, NUuid, ref, Uuid } from '../shared/schemas.js';

// Attachments (docs/attachments.md, docs/product.md §14): their own resource on their own endpoints, never fields on
// the contract's items, instances or types.

export const AttachmentOwnerKind = Type.Union([Type.Literal('item'), Type.Literal('instance'), Type.Literal('type')], {
  description: 'What the document belongs to: an inventory item, one instance (container) of an item, or a type.',
});
export type AttachmentOwnerKind = Static<typeof AttachmentOwnerKind>;

export const Attachment = Type.Object(
  {
    id: Uuid,
    owner_kind: AttachmentOwnerKind,
    owner_id: { ...Uuid, description: 'The id of the item, instance or type.' },
    item_id: { ...NUuid, description: "An instance's item (null for an item's or a type's document)." },
    lab_id: Uuid,
    file_name: Type.String({ description: 'The name it was uploaded with, without folders or control characters.' }),
    media_type: Type.String({ description: 'The type read from the content itself (not from the name or the Content-Type sent).' }),
    size_bytes: Type.Integer({ minimum: 0 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the content, hex; also the ETag of the download.' }),
    version: Type.Integer({ minimum: 1, description: '1 at upload, one more at each replace of the content.' }),
    created_by: ref(UserSummary),
    created_at: DateTime,
    updated_by: { ...ref(UserSummary), description: 'Who uploaded the current content (the uploader until a replace).' },
    updated_at: DateTime,
    download_url: Type.String({ description: 'Path of the content, served as a download.' }),
  },
  {
    $id: 'Attachment',
    title: 'Attachment',
    additionalProperties: false,
    examples: [
      {
        id: '0b6f5c36-5a43-4f39-9c55-8f2d3c1a9e10',
        owner_kind: 'type',
        owner_id: '5d0c1a2e-7f44-4b1e-9a7e-3c2b1d0e9f88',
        item_id: null,
        lab_id: '9a1e2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b',
        file_name: 'Ethanol SDS.pdf',
        media_type: 'application/pdf',
        size_bytes: 183204,
        sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        version: 1,
        created_by: { id: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' },
        created_at: '2026-11-27T10:00:00.000Z',
        updated_by: { id: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' },
        updated_at: '2026-11-27T10:00:00.000Z',
        download_url: '/attachments/0b6f5c36-5a43-4f39-9c55-8f2d3c1a9e10/content',
      },
    ],
  },
);
export type Attachment = Static<typeof Attachment>;

export const UploadQuery = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 1000,
    description:
      "The file's name as the person sees it. Folders (a/b, a\\b), control characters and surrounding dots and spaces are removed; at most 200 characters are kept.",
    examples: ['Ethanol SDS.pdf'],
  }),
});
export type UploadQuery = Static<typeof UploadQuery>;
