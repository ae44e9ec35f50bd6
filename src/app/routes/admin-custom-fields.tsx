import { CustomFieldsScreen } from '../../features/custom-fields/custom-fields-screen';
import { RequireRole } from './require-role';

export function AdminCustomFieldsRoute() {
  return (
    <RequireRole roles={['vendor']} why="Only the vendor (the account owner) manages custom fields: they apply to every member’s contacts.">
      <CustomFieldsScreen />
    </RequireRole>
  );
}
