import { integrationOperations, tokenOperations } from './access.js';
import { catalogOperations } from './catalog.js';
import { contactDetailOperations } from './contact-details.js';
import { contactOperations } from './contacts.js';
import { dialerOperations } from './dialer.js';
import { importOperations } from './imports.js';
import { libraryOperations, transcriptOutsideRest } from './library.js';
import { oauthOperations } from './oauth.js';
import type { Operation } from './operation.js';
import { systemOperations } from './system.js';

/** Every operation of /rest/1, in the order the reference shows their groups. */
export const restOperations: Operation[] = [
  ...contactOperations,
  ...contactDetailOperations,
  ...catalogOperations,
  ...importOperations,
  ...dialerOperations,
  ...libraryOperations,
  ...integrationOperations,
  ...tokenOperations,
  ...systemOperations,
];

/** The API's parts, each below its prefix. */
export const apiParts = [
  { prefix: '/rest/1', operations: restOperations },
  { prefix: '/api/rest', operations: transcriptOutsideRest },
  { prefix: '/oauth', operations: oauthOperations },
];
