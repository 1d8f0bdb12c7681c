import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOCUMENT_KINDS, type DocumentKind } from '@app/domain';
import type { DocumentFile } from '@app/credentials';
import { ApiError } from '@app/http';

/** The largest document taken: a scanned page or a phone photo fits, a video does not. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

/** The types taken, each with the bytes its files begin with: a file whose bytes are not what it says is refused, not stored. */
const SIGNATURES: Readonly<Record<string, Buffer>> = {
  'application/pdf': Buffer.from('%PDF-'),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
};
export const DOCUMENT_CONTENT_TYPES = Object.keys(SIGNATURES);

/** A document larger than the rules take: the API's upload and the hosted page's form refuse it alike. */
export const documentTooLarge = () => new ApiError(413, 'DOCUMENT_TOO_LARGE', `A document is at most ${MAX_DOCUMENT_BYTES} bytes`);

const refusedType = (detail: string) => new ApiError(415, 'DOCUMENT_TYPE_UNSUPPORTED', `${detail}: a document is a PDF, JPEG or PNG file (${DOCUMENT_CONTENT_TYPES.join(', ')})`);

/** The file's declared type, when the bytes are of that type. */
function checkedType(declared: string, bytes: Buffer): string {
  const contentType = declared.split(';')[0].trim().toLowerCase();
  const signature = SIGNATURES[contentType];
  if (!signature) throw refusedType(`The file is sent as ${JSON.stringify(contentType)}`);
  if (!bytes.subarray(0, signature.length).equals(signature)) throw refusedType(`The file is sent as ${contentType} but its bytes are not`);
  return contentType;
}

/**
 * A document upload: multipart/form-data with a `kind` field and one `file` part, nothing else (a closed
 * body, as a JSON one is). Size and type are checked before anything is kept.
 */
export async function readDocumentUpload(request: FastifyRequest): Promise<DocumentFile & { kind: DocumentKind }> {
  if (!request.isMultipart()) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the document as multipart/form-data: a kind field and a file part');
  let kind: string | undefined;
  let file: { declared: string; bytes: Buffer } | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 4, parts: 5 } })) {
      if (part.type === 'file' && part.fieldname === 'file') file = { declared: part.mimetype, bytes: await part.toBuffer() };
      else if (part.type === 'field' && part.fieldname === 'kind') kind = String(part.value);
      else throw new ApiError(400, 'UNKNOWN_FIELD', `${part.fieldname} is not a field of a document upload: send kind and file`);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if ((error as { statusCode?: number }).statusCode === 413) {
      throw new ApiError(413, 'DOCUMENT_TOO_LARGE', `A document is at most ${MAX_DOCUMENT_BYTES} bytes, and an upload holds one kind field and one file`);
    }
    throw new ApiError(400, 'BadRequestException', 'The upload could not be read as multipart/form-data');
  }
  return checkedDocument(kind, file);
}

/**
 * A document's kind and file as the rules take them, or the refusal with its code: the API's upload and
 * the hosted onboarding page's form both check here, so a seller's upload is held to the platform's.
 */
export function checkedDocument(kind: string | undefined, file: { declared: string; bytes: Buffer } | undefined): DocumentFile & { kind: DocumentKind } {
  if (!DOCUMENT_KINDS.includes(kind as DocumentKind)) throw new ApiError(400, 'DOCUMENT_KIND_INVALID', `kind must be one of ${DOCUMENT_KINDS.join(', ')}`);
  if (!file || file.bytes.length === 0) throw new ApiError(400, 'DOCUMENT_FILE_MISSING', 'Send the document as a non-empty file part named file');
  if (file.bytes.length > MAX_DOCUMENT_BYTES) throw documentTooLarge();
  return { kind: kind as DocumentKind, contentType: checkedType(file.declared, file.bytes), bytes: file.bytes };
}

const EXTENSIONS: Readonly<Record<string, string>> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' };

/** A document's bytes as a download: never shown inline, never cached. */
export function sendDocument(reply: FastifyReply, documentId: string, file: DocumentFile): FastifyReply {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${documentId}.${EXTENSIONS[file.contentType] ?? 'bin'}"`)
    .header('cache-control', 'no-store')
    .send(file.bytes);
}
