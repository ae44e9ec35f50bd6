import { z } from 'zod';
import { callReadQuery, listCallsQuery } from '../calls.js';
import { createMessageBody, messageIdParam, updateMessageBody } from '../content.js';
import { callIdParam, contentQuery, recordingIdParam, transcriptIdParam } from '../dial-sessions.js';
import { renameVoicemailBody, uploadVoicemailQuery } from '../voicemails.js';
import { contentItem, listedCallItem, transcriptItem, voicemailItem } from './dial-records.js';
import { audio, operations } from './operation.js';

/** The contract's one path outside /rest/1: the full transcript, as at /rest/1/transcripts/{transcript_id}. */
export const transcriptOutsideRest = operations([
  {
    method: 'get',
    route: '/transcript/:transcript_id',
    tag: 'Calls',
    summary: 'A full transcript (the contract’s own path)',
    params: transcriptIdParam,
    answer: { status: 200, record: 'transcript', item: transcriptItem },
  },
]);

const message = 'A member’s own messages (disposition e-mails), docs/api.md “Message library”.';

/** The member's own messages beside the system ones: extensions to the contract's GET /content. */
const messageOperations = operations([
  {
    method: 'post',
    route: '/content',
    tag: 'Library',
    summary: 'Write a message of your own',
    extension: message,
    body: createMessageBody,
    answer: { status: 201, record: 'content', item: contentItem },
  },
  {
    method: 'get',
    route: '/content/:message_id',
    tag: 'Library',
    summary: 'Get a message',
    extension: message,
    params: messageIdParam,
    answer: { status: 200, record: 'content', item: contentItem },
  },
  {
    method: 'put',
    route: '/content/:message_id',
    tag: 'Library',
    summary: 'Change a message of your own',
    description: 'Changes the fields given; a system message or another member’s is refused.',
    extension: message,
    params: messageIdParam,
    body: updateMessageBody,
    answer: { status: 200, record: 'content', item: contentItem },
  },
  {
    method: 'delete',
    route: '/content/:message_id',
    tag: 'Library',
    summary: 'Delete a message of your own',
    extension: message,
    params: messageIdParam,
    answer: { status: 204 },
  },
]);

/** The calls across sessions, their transcripts, and the library a dial session draws on. */
export const libraryOperations = operations([
  {
    method: 'get',
    route: '/calls',
    tag: 'Calls',
    summary: 'List calls across sessions',
    extension: 'The calls screen.',
    query: listCallsQuery,
    answer: { status: 200, list: 'calls', item: listedCallItem },
  },
  {
    method: 'get',
    route: '/calls/:call_id',
    tag: 'Calls',
    summary: 'Get a call as the list shows it',
    extension: 'The call viewer.',
    params: callIdParam,
    query: callReadQuery,
    answer: { status: 200, nested: 'call', inner: 'call', item: listedCallItem },
  },
  {
    method: 'get',
    route: '/transcripts/:transcript_id',
    tag: 'Calls',
    summary: 'A full transcript',
    description: 'Also at /api/rest/transcript/{transcript_id}, as the contract has it.',
    params: transcriptIdParam,
    answer: { status: 200, record: 'transcript', item: transcriptItem },
  },
  {
    method: 'get',
    route: '/transcript/:transcript_id',
    tag: 'Calls',
    summary: 'A full transcript (the contract’s singular path)',
    params: transcriptIdParam,
    answer: { status: 200, record: 'transcript', item: transcriptItem },
  },
  {
    method: 'get',
    route: '/content',
    tag: 'Library',
    summary: 'The message library',
    query: contentQuery,
    answer: { status: 200, nested: 'content', inner: 'emails', item: z.array(contentItem) },
  },
  ...messageOperations,
  {
    method: 'get',
    route: '/voicemails',
    tag: 'Library',
    summary: 'The voicemail library',
    answer: { status: 200, list: 'voicemails', item: voicemailItem },
  },
  {
    method: 'post',
    route: '/voicemails',
    tag: 'Library',
    summary: 'Upload a voicemail greeting',
    extension: 'The voicemail library on Settings.',
    query: uploadVoicemailQuery,
    rawBody: { media: 'audio/*', about: 'The audio file itself (the bytes decide its type), up to 12 MB and 2 minutes.' },
    answer: { status: 201, record: 'voicemails', item: voicemailItem },
  },
  {
    method: 'put',
    route: '/voicemails/:recording_id',
    tag: 'Library',
    summary: 'Rename a voicemail greeting',
    extension: 'The voicemail library on Settings.',
    params: recordingIdParam,
    body: renameVoicemailBody,
    answer: { status: 200, record: 'voicemails', item: voicemailItem },
  },
  {
    method: 'delete',
    route: '/voicemails/:recording_id',
    tag: 'Library',
    summary: 'Delete a voicemail greeting',
    extension: 'The voicemail library on Settings.',
    params: recordingIdParam,
    answer: { status: 204 },
  },
  {
    method: 'get',
    route: '/voicemails/:recording_id/audio',
    tag: 'Library',
    summary: "A greeting's audio",
    extension: 'The voicemail library’s players.',
    params: recordingIdParam,
    answer: audio,
  },
  {
    method: 'get',
    route: '/dispositions',
    tag: 'Library',
    summary: 'Disposition sets',
    answer: { status: 200, list: 'dispositions', about: 'Each set with its statuses (disposition_id, status, key, connected, shortcut).' },
  },
]);
