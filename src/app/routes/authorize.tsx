import { ConsentScreen } from '../../features/integrations/consent-screen';

export function AuthorizeRoute() {
  return <ConsentScreen />;
}
