import { RouterProvider } from 'react-router';
import { authKeys } from '../api/auth';
import { setUnauthorizedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { AppProviders } from './providers';
import { createAppRouter } from './router';

const queryClient = createQueryClient();
const router = createAppRouter();

/*
 * Any 401 means the session ended: go to the sign-in page (remembering where the user was), then drop
 * every cached answer so nothing of the old session survives.
 */
setUnauthorizedHandler(() => {
  const { pathname, search } = router.state.location;
  if (pathname === '/sign-in') return;
  const next = encodeURIComponent(`${pathname}${search}`);
  void router.navigate(`/sign-in?next=${next}`, { replace: true, state: { sessionEnded: true } }).then(() => {
    queryClient.clear();
    queryClient.setQueryData(authKeys.session(), null);
  });
});

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
