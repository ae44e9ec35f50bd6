/*
 * The query keys of the resources whose changes show on one another (a contact change moves folder, tag and member
 * counts; a folder or tag change shows on contacts). Kept here, below the resource modules, so that each can read
 * the others' keys again without the modules importing one another.
 */

export const contactKeys = {
  all: ['contacts'] as const,
  lists: () => [...contactKeys.all, 'list'] as const,
  list: <P extends object>(params: P) => [...contactKeys.lists(), params] as const,
  details: () => [...contactKeys.all, 'detail'] as const,
  detail: (id: string) => [...contactKeys.details(), id] as const,
  versioned: (id: string) => [...contactKeys.detail(id), 'versioned'] as const,
  matches: (email: string, phone: string) => [...contactKeys.all, 'matches', { email, phone }] as const,
};

export const folderKeys = {
  all: ['folders'] as const,
  tree: () => [...folderKeys.all, 'tree'] as const,
};

export const memberKeys = {
  all: ['members'] as const,
  team: (withRemoved = false) => [...memberKeys.all, 'team', withRemoved ? 'with-removed' : 'current'] as const,
};

export const tagKeys = {
  all: ['tags'] as const,
  list: () => [...tagKeys.all, 'list'] as const,
  counted: () => [...tagKeys.all, 'counted'] as const,
};

export const voicemailKeys = {
  all: ['voicemails'] as const,
  list: () => [...voicemailKeys.all, 'list'] as const,
};

/** The message library (GET /rest/1/content): the settings' message pickers read it too. */
export const contentKeys = {
  all: ['content'] as const,
  list: () => [...contentKeys.all, 'list'] as const,
};

export const integrationKeys = {
  all: ['integrations'] as const,
  list: () => [...integrationKeys.all, 'list'] as const,
  connections: () => [...integrationKeys.all, 'connections'] as const,
  consent: (query: string) => [...integrationKeys.all, 'consent', query] as const,
};

export const tokenKeys = {
  all: ['tokens'] as const,
  list: (entireTeam: boolean) => [...tokenKeys.all, 'list', { entireTeam }] as const,
};
