import { operations } from './operation.js';
import { clockItem } from './dial-records.js';

export const systemOperations = operations([
  {
    method: 'get',
    route: '/tranquility',
    tag: 'System',
    summary: 'Ping',
    public: true,
    answer: { status: 200, list: 'tranquility', about: 'One record with a `meaning`.' },
  },
  {
    method: 'get',
    route: '/clock',
    tag: 'System',
    summary: "The server's clock",
    extension: 'Date ranges count back from the server’s today.',
    answer: { status: 200, record: 'clock', item: clockItem },
  },
  {
    method: 'get',
    route: '/openapi.json',
    tag: 'System',
    summary: 'This document',
    description: 'The API described in OpenAPI 3.1, generated from the contracts the server validates with.',
    extension: 'For developers and code generators.',
    public: true,
    answer: { status: 200, media: 'application/json', about: 'An OpenAPI 3.1 document.' },
  },
]);
