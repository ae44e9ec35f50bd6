/*
 * Bulk changes to contacts, run as background jobs (extension: POST /rest/1/bulkjobs). Browser-safe: zod only.
 */
import { z } from 'zod';
import { idLike, listOf, optionalIdLike, text } from './common.js';
import { contactFilter } from './contacts.js';

export const BULK_ACTIONS = ['add_tag', 'remove_tag', 'move', 'transfer', 'trash'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** A job over named contacts holds at most this many ids; a whole filtered view has no such limit. */
export const BULK_IDS_LIMIT = 10_000;

export const createBulkJobBody = z
  .object({
    action: z.enum(BULK_ACTIONS, { error: `must be one of ${BULK_ACTIONS.join(', ')}` }),
    contact_user_ids: listOf(idLike).pipe(
      z
        .array(z.number())
        .max(BULK_IDS_LIMIT, { error: `must list at most ${BULK_IDS_LIMIT} contact ids` })
        .optional(),
    ),
    filter: contactFilter.optional(),
    tag_id: idLike.optional(),
    /* add_tag: a title instead of tag_id; one the catalogue does not have joins it. */
    tag: text(100)
      .pipe(z.string().min(1, { error: 'must not be empty' }))
      .optional(),
    folder_id: optionalIdLike.optional(),
    member_id: idLike.optional(),
  })
  .superRefine((b, ctx) => {
    /* A field a rule requires and the body left out is missing (40002), as everywhere else; a field given wrongly is invalid. */
    const need = (field: string, ok: boolean, message: string) =>
      ok || ctx.addIssue({ code: 'custom', path: [field], message, params: { missing: true } });
    const listed = (b.contact_user_ids?.length ?? 0) > 0;
    need(
      'contact_user_ids',
      listed || !!b.filter,
      'is required, or else filter: list the contacts, or describe them by filter (one of the two)',
    );
    if (listed && b.filter) {
      ctx.addIssue({
        code: 'custom',
        path: ['contact_user_ids'],
        message: 'must not be given with filter: list the contacts, or describe them by filter (one of the two)',
      });
    }
    if (b.action === 'add_tag')
      need('tag_id', b.tag_id !== undefined || b.tag !== undefined, 'is required to add a tag (or give its title as tag)');
    if (b.action === 'remove_tag') need('tag_id', b.tag_id !== undefined, 'is required to remove a tag');
    if (b.action === 'move') need('folder_id', b.folder_id !== undefined, 'is required to move contacts (0 for no folder)');
    if (b.action === 'transfer') need('member_id', b.member_id !== undefined, 'is required to transfer contacts');
  });
export type CreateBulkJobBody = z.output<typeof createBulkJobBody>;

export const bulkJobIdParam = z.object({ bulk_job_id: idLike });

export type BulkJobRecord = {
  bulk_job_id: string;
  action: BulkAction;
  status: 'queued' | 'running' | 'done' | 'failed';
  total: number;
  processed: number;
  changed: number;
  error: string | null;
  created_at: string;
  finished_at: string | null;
};
