import { MembersScreen } from '../../features/members/members-screen';
import { RequireRole } from './require-role';

export function AdminMembersRoute() {
  return (
    <RequireRole roles={['vendor', 'manager']} why="Members are managed by the vendor; managers see their own team here.">
      <MembersScreen />
    </RequireRole>
  );
}
