/*
 * The calls list (extension): GET /rest/1/calls. Browser-safe: zod only. Each filter is a field of the query and a
 * condition in calls.repository.ts's one query builder.
 */
import { z } from 'zod';
import { flagLike, idLike, paging, query, text } from './common.js';
import type { CallRecord } from './dial-sessions.js';

const day = z.iso.date({ error: 'must be a date YYYY-MM-DD' });

export const listCallsQuery = paging.extend({
  /** The calls of one contact the caller can see (the contact page's call log). */
  contact_id: query.value(idLike.optional()),
  /** Calls made by one member of the caller's team (anyone else: 400). */
  member_id: query.value(idLike.optional()),
  session_id: query.value(idLike.optional()),
  /** Calls dialed on or after / on or before these days (UTC). */
  date_start: query.value(day.optional()),
  date_end: query.value(day.optional()),
  /** The disposition's label as calls show it ('' for none). */
  disposition: query.value(z.string().max(100).optional()),
  /** 1: a person answered; 0: nobody did. */
  connected: query.value(flagLike.optional()),
  /** 1: the call has a recording; 0: it has none. */
  recorded: query.value(flagLike.optional()),
  /** Words said on the call, as a phrase: calls whose transcript holds them in that order. */
  search: query.value(text(200).optional()),
  include_recording: query.flag,
  include_transcript: query.flag,
});
export type ListCallsQuery = z.output<typeof listCallsQuery>;

/** GET /rest/1/calls/{call_id}: the one call, as the list shows it. */
export const callReadQuery = z.object({ include_recording: query.flag, include_transcript: query.flag });

/** A call as GET /rest/1/dialsession/call/{id} answers it, with its session and who made it. */
export type ListedCallRecord = CallRecord & { session_id: string; member_id: string; member_name: string };
