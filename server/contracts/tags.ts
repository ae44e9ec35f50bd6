/*
 * The organisation's tag catalogue (/rest/1/tags) and a contact's tags. Browser-safe: zod only.
 */
import { z } from 'zod';
import { idLike, paging, query, text } from './common.js';

export const TAG_TITLE_MAX = 100;
export const tagTitle = text(TAG_TITLE_MAX).pipe(z.string().min(1, { error: 'must not be empty' }));

export const tagBody = z.object({ title: tagTitle });
export const tagIdParam = z.object({ tag_id: idLike });

/** Extension: `with_counts=1` adds each tag's `contact_count` (for the admin screen). */
export const listTagsQuery = paging.extend({ with_counts: query.flag });

/** A tag in the catalogue's list and on a contact; `contact_count` only with `with_counts=1`. */
export type TagRecord = { id: number; title: string; contact_count?: number };

/** POST and PUT /rest/1/tags answer the tag as `{ id, tag }`, as the contract shows. */
export type WrittenTagRecord = { id: number; tag: string };
