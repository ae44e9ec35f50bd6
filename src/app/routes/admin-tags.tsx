import { TagsScreen } from '../../features/tags/tags-screen';
import { RequireRole } from './require-role';

export function AdminTagsRoute() {
  return (
    <RequireRole
      roles={['vendor']}
      why="Only the vendor (the account owner) manages the tag catalog: renaming or deleting a tag changes every member’s contacts."
    >
      <TagsScreen />
    </RequireRole>
  );
}
