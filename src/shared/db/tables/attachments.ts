// Attachments (migration 0032, src/attachments/, docs/attachments.md): documents kept with an item, an instance or a
// type, their content in chunks.

export interface AttachmentsTable {
  id: string;
  /** The owner's lab (an item's, an instance's item's, a type's): visibility follows it. */
  lab_id: string;
  /** Exactly one of the three names the owner. */
  item_id: string | null;
  instance_id: string | null;
  type_id: string | null;
  file_name: string;
  /** The type read from the content (never from the name or the request's Content-Type). */
  media_type: string;
  size_bytes: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
  /** The chunks of the current content; null while the first upload is being received. */
  content_id: string | null;
  /** 1 at the first upload, one more at each replace. */
  version: number;
  created_by: string;
  created_at: string;
  updated_by: string;
  updated_at: string;
}

export interface AttachmentChunksTable {
  attachment_id: string;
  content_id: string;
  /** 0, 1, 2, … in the content's order. */
  seq: number;
  data: Buffer;
  created_at: string;
}
