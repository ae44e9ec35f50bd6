import { IntegrationsScreen } from '../../features/integrations/integrations-screen';
import { RequireRole } from './require-role';

export function AdminIntegrationsRoute() {
  return (
    <RequireRole roles={['vendor']} why="Only the vendor (the account owner) registers the integrations members may connect.">
      <IntegrationsScreen />
    </RequireRole>
  );
}
